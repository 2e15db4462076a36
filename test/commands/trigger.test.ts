// pgw trigger against the embedded sandbox (in-process, real HTTP): what it makes for each event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';

let config: { dir: string; cleanup: () => void };
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const pgw = (argv: string[]) => runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
async function json<T = Record<string, any>>(argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('pgw trigger', () => {
  it('PAYMENT_SETTLED: an order, its captured payment, settled; the settlement is readable', async () => {
    const made = await json(['trigger', 'PAYMENT_SETTLED', '--amount', '2000']);
    expect(made).toEqual({ event: 'PAYMENT_SETTLED', order_id: expect.stringMatching(/^OD/), payment_id: expect.stringMatching(/^PR[0-9]{10}$/), settlement_id: expect.stringMatching(/^ST[0-9]{10}$/), amount: '2000.00', mop_type: 'upi' });
    const payment = await json(['payment', 'get', made.payment_id]);
    expect(payment).toMatchObject({ status: 'captured', order: { order_id: made.order_id, amount: '2000.00' }, settlement: { id: made.settlement_id } });
    const settlement = await json(['settle', 'get', made.settlement_id]);
    expect(settlement.settlement_amount).toBe(1882); // 2000 - 100 fee - 18 GST (spec 4.6)
  });

  it('PAYMENT_FAILED with --mop and --link: a failed card payment made through a link', async () => {
    const made = await json(['trigger', 'payment_failed', '--mop', 'credit_card', '--link']);
    expect(made).toMatchObject({ event: 'PAYMENT_FAILED', link_id: expect.stringMatching(/^PR/), mop_type: 'credit_card' });
    expect(made).not.toHaveProperty('settlement_id');
    const payment = await json(['payment', 'get', made.payment_id]);
    expect(payment).toMatchObject({ status: 'failed', mop_type: 'credit_card' });
    const link = await json(['link', 'get', made.link_id]);
    expect(link.payments.map((p: { payment_id: string }) => p.payment_id)).toContain(made.payment_id);
  });

  it('a terminal gets the IDs and the next step', async () => {
    const r = await runCli(['trigger', 'PAYMENT_CAPTURED'], { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^event\s+PAYMENT_CAPTURED$/m);
    expect(r.stdout).toMatch(/^payment_id\s+PR[0-9]{10}$/m);
    expect(r.stderr).toContain('PAYMENT_CAPTURED sent to the registered addresses');
  });

  it('a PSP profile must name the sub-merchant (exit 2); with -m it works', async () => {
    const refused = await pgw(['-p', 'local-psp', 'trigger', 'PAYMENT_CAPTURED', '-o', 'table']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('add -m <merchant_id>');
    const subs = await json<{ id: string }[]>(['-p', 'local-psp', 'merchant', 'list']);
    const made = await json(['-p', 'local-psp', '-m', subs[0]!.id, 'trigger', 'PAYMENT_SETTLED']);
    expect(made.settlement_id).toMatch(/^ST/);
  });
});
