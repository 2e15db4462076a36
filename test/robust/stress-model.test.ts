// Model-based test of the sandbox (issue 8, part 4): fast-check generates sequences of order,
// payment, refund, chargeback and mark-settled commands, runs them against the sandbox over HTTP
// and checks every answer against a simple model with its own integer-paise arithmetic
// (stress-model.ts). A failure is shrunk to the shortest sequence that shows it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { startHarness, type Harness } from '../sandbox/harness.js';
import { breakdown, emptyModel, fmt, type Real } from './stress-model.js';
import { commandArbs } from './stress-model-commands.js';

const RUNS = 150;
const MAX_COMMANDS = 100;

let h: Harness;
const ran: Record<string, number> = {};
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  // The figures for the closing note.
  const total = Object.values(ran).reduce((a, b) => a + b, 0);
  console.info(`model-based sandbox test: ${total} commands in ${RUNS} runs: ${JSON.stringify(ran)}`);
});

it("the model's own arithmetic gives spec 4.6's check case", () => {
  // payment 1000.00, refund 100.00, chargeback 50.00 → fee 50.00, GST 9.00, net 941.00, amount 791.00
  const b = breakdown(100_000);
  expect([fmt(b.fee), fmt(b.gst), fmt(b.net), fmt(b.net - 10_000 - 5_000)]).toEqual(['50.00', '9.00', '941.00', '791.00']);
  // Half a paisa rounds up: 0.10 → fee 0.005 → 0.01; 10.10 → fee 0.505 → 0.51, GST 0.0918 → 0.09.
  expect(breakdown(10)).toEqual({ fee: 1, gst: 0, net: 9 });
  expect(breakdown(1010)).toEqual({ fee: 51, gst: 9, net: 950 });
  expect(fmt(-50)).toBe('-0.50');
});

it('orders, payments, refunds, chargebacks and settlements behave as the model says', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands(commandArbs, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
      await fc.asyncModelRun(async () => {
        const reset = await h.call('POST', '/sandbox/reset/');
        expect(reset.status).toBe(200);
        const real: Real = { h, ran };
        return { model: emptyModel(), real };
      }, cmds);
    }),
    { numRuns: RUNS },
  );
  // The generator reached every kind of command, refusals included.
  for (const name of ['create order', 'pay order', 'add refund', 'add chargeback', 'mark-settled (accepted)', 'mark-settled (refused)', 'get payment', 'get settlement']) {
    expect(ran[name], name).toBeGreaterThan(0);
  }
}, 120_000);
