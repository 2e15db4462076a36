// The model-based test of the sandbox (issue 31): random sequences of 41 kinds of operation
// (virtual bank accounts' create, status and transfer among them, issue 36; payment links as the
// vendor's client makes them, their extension, share and buyer page, card verifications expiring
// on the clock with what each clock move says it caused, issue 42) by two merchants, a PSP
// and two of its sub-merchants, against `sandbox serve` over HTTP and against the embedded
// in-process pipeline, each step held against a reference model (test/robust/model/) and
// followed by a check of the invariants I1–I6 of docs/sandbox.md on the real state. A failure is
// shrunk to the shortest sequence that shows it and printed with its seed and path.
//
//   PGW_MODEL_RUNS=N         sequences per transport (default 150)
//   PGW_MODEL_COMMANDS=N     longest sequence (default 40)
//   PGW_MODEL_ONLY=a,b       only these command groups or kinds (money, links, events, snapshots,
//                            clock, faults, scope, vba, documents, lrs, listen, kyc; or kinds such as SnapshotRestore; -X leaves X out)
//   PGW_MODEL_SKIP=a,b       leave out checks: I1..I6, clock-offsets (I2's "another tree's clock
//                            moved"), clock-isolation (a clock move may change every account)
//   PGW_MODEL_ACTORS=M1,M2   only these actors (M1, M2, P, S1, S2)
//   PGW_MODEL_TRANSPORTS=http,embedded
//   PGW_MODEL_SEED=s PGW_MODEL_PATH=p PGW_MODEL_REPLAY=r   replay a counterexample fast-check printed
//                            (its seed, path and the replayPath after the command list); with the
//                            same PGW_MODEL_ONLY / _ACTORS / _TRANSPORTS and at least as many runs
//   PGW_MODEL_PROFILE=1      print where the time went
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POLL_MS } from '../../src/sandbox/webhooks.js';
import { Receiver } from './model/receiver.js';
import { World, api, type Transport } from './model/ops.js';
import { emptyModel, type Real } from './model/model.js';
import { KINDS, PROFILE, commandArbs, settleAll } from './model/commands.js';
import './model/issue45.js'; // issue 45: pgw listen, sub-merchants and kyc moves join KINDS
import { closeListeners } from './model/listeners.js';
import { checkCalendar, checkDeliveries, checkDeliveriesDone, checkIsolation, checkMoney, checkRestore, isCalendarStamp, takeDigest } from './model/invariants.js';
import { openRaw } from '../helpers/sqlite.js';
import { orderBody } from '../sandbox/harness.js';
import { breakdown, fmt } from './stress-model.js';

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const RUNS = Number(process.env.PGW_MODEL_RUNS ?? 150);
const MAX_COMMANDS = Number(process.env.PGW_MODEL_COMMANDS ?? 40);
const ONLY = list(process.env.PGW_MODEL_ONLY);
const SKIP: ReadonlySet<string> = new Set(list(process.env.PGW_MODEL_SKIP));
const TRANSPORTS = list(process.env.PGW_MODEL_TRANSPORTS ?? 'http,embedded') as Transport[];
const SEED = process.env.PGW_MODEL_SEED === undefined ? undefined : Number(process.env.PGW_MODEL_SEED);
const PATH = process.env.PGW_MODEL_PATH;
const REPLAY = process.env.PGW_MODEL_REPLAY;

const receiver = new Receiver();
const ran: Record<string, number> = {};
let runs = 0;

beforeAll(async () => {
  // The webhook dispatcher's once-a-second look runs when a step has waited for the sandbox
  // (ops.ts quiesce), never on the wall clock: each step sees the same deliveries on every run.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  await receiver.start();
});
afterAll(async () => {
  vi.useRealTimers();
  await receiver.close();
  const total = Object.entries(ran)
    .filter(([k]) => KINDS.some((x) => x.kind === k))
    .reduce((a, [, b]) => a + b, 0);
  console.info(`model-invariants: ${runs} sequences, ${total} commands: ${JSON.stringify(ran)}`);
  if (process.env.PGW_MODEL_PROFILE) console.info(JSON.stringify(PROFILE, (_k, v) => (typeof v === 'number' ? Math.round(v) : v)));
});

it('the oracle knows a calendar date and the settlement rule', () => {
  expect(['2026-11-21T10:00:00.123456Z', '2026-11-25 09:20:00Z', '2026-11-25 09:20:00', '9999-12-31T23:59:59.999999Z', '2026-02-28'].every(isCalendarStamp)).toBe(true);
  expect(['+010010-01-01T00:00:00.000000Z', '2026-02-30T00:00:00Z', '1969-12-31T23:59:59Z', '2026-11-21T24:00:00Z'].some(isCalendarStamp)).toBe(false);
  const b = breakdown(100_000);
  expect([fmt(b.fee), fmt(b.gst), fmt(b.net)]).toEqual(['50.00', '9.00', '941.00']);
});

it('each invariant check reports a violation planted in the database', async () => {
  const w = await World.open('embedded', receiver, 'planted', () => vi.advanceTimersByTime(POLL_MS));
  const raw = openRaw(w.dbPath);
  try {
    raw.exec('PRAGMA busy_timeout = 5000');
    await w.send('M1', api.addWebhook(receiver.url('planted', 'M1', 1)));
    const created = await w.send('M1', api.createOrder(orderBody({ amount: '100.00' })));
    const paid = await w.send('M1', api.pay(created.body.data.order_id, 'success', 'simulator'));
    const paymentId = paid.body.data.payment_id as string;
    await w.quiesce();
    expect([...checkMoney(w), ...checkCalendar(w), ...(await checkDeliveries(w))]).toEqual([]);
    const before = takeDigest(w);
    raw.prepare("INSERT INTO refunds (refund_id, payment_id, merchant_id, amount, status, created_at) VALUES ('RF0000000001', ?, ?, '100.01', 'processing', '2026-01-01T00:00:00.000000Z')").run(paymentId, w.ids.M1);
    raw.prepare("UPDATE orders SET created_at = '+010000-01-01T00:00:00.000000Z'").run();
    raw.prepare("UPDATE deliveries SET next_attempt_at = NULL, state = 'failed'").run();
    raw.prepare("UPDATE attempts SET status = 500").run();
    raw.prepare("UPDATE attempts SET signature = 'x' || substr(signature, 2)").run();
    const after = takeDigest(w);
    expect(checkMoney(w).join('\n')).toMatch(/I1: payment PR\d+ \(M1, captured 100.00\): refunds in counting statuses 100.01/);
    expect(checkCalendar(w).join('\n')).toMatch(/I5: orders.created_at holds "\+010000-01-01/);
    expect((await checkDeliveries(w)).join('\n')).toMatch(/I4: event EV\d+'s delivery to \S+ stopped after 1 of 5 attempts without a 200/);
    expect((await checkDeliveries(w)).join('\n')).toMatch(/I4: event EV\d+'s attempt 1 to \S+ keeps X-Webhook-Signature x[0-9a-f]{63}, not the HMAC of its body/);
    const m2only = { what: 'an operation of M2', accounts: new Set(['M2']), faultsOf: null, clockTrees: new Set<never>() };
    expect(checkIsolation(before, after, m2only, new Set()).join('\n')).toMatch(/I2: an operation of M2 changed M1's rows, outside its scope: orders/);
    expect(checkRestore('a restore', ['M1'], { M1: before.rows.M1 }, before, after).join('\n')).toMatch(/I3: after a restore, M1 \(held by the snapshot\) differs from when it was saved: deliveries/);
  } finally {
    raw.close();
    await w.close();
  }
});

describe.each(TRANSPORTS)('the sandbox over %s', (transport) => {
  it(
    'keeps I1–I5 and answers as the model says, whatever the sequence of operations',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commandArbs(ONLY), { maxCommands: MAX_COMMANDS, size: 'max', replayPath: REPLAY }), async (cmds) => {
          const run = `${transport === 'http' ? 'h' : 'e'}${++runs}`;
          const w = await World.open(transport, receiver, run, () => vi.advanceTimersByTime(POLL_MS));
          try {
            await w.quiesce();
            const real: Real = { w, last: takeDigest(w), failures: [], violations: [], ran, seq: 0, skip: SKIP };
            await fc.asyncModelRun(() => ({ model: emptyModel(), real }), cmds);
            if (!SKIP.has('I4')) {
              const moved = await settleAll(real);
              const v = checkDeliveriesDone(w, moved);
              if (v.length > 0) throw new Error(`after the sequence, every clock two hours on:\n  ${v.join('\n  ')}`);
            }
          } finally {
            await closeListeners(w);
            await w.close();
          }
        }),
        { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: PATH !== undefined },
      );
    },
    30 * 60_000,
  );
});
