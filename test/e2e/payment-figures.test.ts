// Issue 21 item 3 (the command run in-process): `payment get`'s human view shows a payment's fee,
// GST and net only as the gateway states them (the payment's settlement, Get Settlement's
// transaction for it, the order's settlement details), never the sandbox's 5 % / 18 % schedule
// computed over a production payment; with none stated, none is shown.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultServer, type FaultContext, type FaultServer } from '../robust/fault-server.js';
import { pgwInProcess } from '../helpers/in-process.js';

const PAYMENT = 'PR1000000007';
const ORDER = 'OD10000000000007';
const SETTLEMENT = 'ST1000000003';

let dir: string;
let server: FaultServer;
let routes: Record<string, unknown> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-figures-'));
  server = await startFaultServer({
    onRequest: ({ req, res }: FaultContext) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (path in routes) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', data: routes[path] }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'ERR_SETTLEMENT_002', message: 'Settlement not found' } }));
      }
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.attempts.length = 0;
});

/** spec 2.7 as production sends it: a settled payment's settlement without per-payment figures. */
const payment = (settled: boolean) => ({
  payment_id: PAYMENT,
  order: { order_id: ORDER, reference_id: 'r-1', amount: '1000.00', currency: 'INR', status: 'payment_successful' },
  settlement: settled
    ? { id: SETTLEMENT, settlement_id: 'b1c2', settlement_amount: '11.92', settlement_currency: 'USD', utr_number: 'UTR1', number_of_transactions: 3, settlement_completed_at: '2026-11-20T10:00:00.000000Z' }
    : null,
  refund: [],
  status: 'captured',
  mop_type: 'upi',
  created_date: '2026-11-19T10:00:00.000000Z',
});

async function human(): Promise<string> {
  const r = await pgwInProcess(['payment', 'get', PAYMENT, '-o', 'table'], {
    env: { PGW_CONFIG_DIR: dir, PGW_BASE_URL: server.base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_figures_1' },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('payment get: fee, GST and net only from the gateway (issue 21 item 3)', () => {
  it("Get Settlement's transaction for the payment: its figures, and where they come from", async () => {
    routes = {
      [`/pg/payments/${PAYMENT}/`]: payment(true),
      [`/pg/settlements/${SETTLEMENT}/`]: {
        settlement_id: SETTLEMENT,
        transactions: [
          { settlement_type: 'refund', transaction_id: PAYMENT, merchant_service_fee: 0, merchant_service_tax: 0, merchant_net_amount: -100 },
          { settlement_type: 'capture', transaction_id: PAYMENT, transaction_amount: 1000, merchant_service_fee: 23.5, merchant_service_tax: 4.23, merchant_net_amount: 972.27, transaction_currency: 'INR' },
        ],
      },
    };
    const out = await human();
    expect(out).toMatch(/fee\s+23\.50 INR/);
    expect(out).toMatch(/gst\s+4\.23 INR/);
    expect(out).toMatch(/net\s+972\.27 INR/);
    expect(out).toMatch(new RegExp(`figures from\\s+settlement ${SETTLEMENT}`));
    expect(out).not.toContain('50.00');
  });

  it("the order's settlement details when the settlement does not list the payment (fee and tax in minor units)", async () => {
    routes = {
      [`/pg/payments/${PAYMENT}/`]: payment(true),
      [`/pg/orders/${ORDER}/`]: {
        order_id: ORDER,
        payments: [{ payment_id: PAYMENT, status: 'captured', settlement: { status: 'SETTLED', settlement_details: { merchant_service_fee_cents: 2000, merchant_service_tax_cents: 360, merchant_net_amount: 976.4 } } }],
      },
    };
    const out = await human();
    expect(out).toMatch(/fee\s+20\.00 INR/);
    expect(out).toMatch(/gst\s+3\.60 INR/);
    expect(out).toMatch(/net\s+976\.40 INR/);
    expect(out).toMatch(new RegExp(`figures from\\s+order ${ORDER}`));
  });

  it('no source states them: no fee, GST or net at all (never 50.00 / 9.00 / 941.00 computed)', async () => {
    routes = { [`/pg/payments/${PAYMENT}/`]: payment(true), [`/pg/orders/${ORDER}/`]: { order_id: ORDER, payments: [] } };
    const out = await human();
    expect(out).toMatch(new RegExp(`settlement_id\\s+${SETTLEMENT}`));
    expect(out).not.toMatch(/^\s*(fee|gst|net)\s/m);
    expect(out).not.toMatch(/50\.00|941\.00/);
  });

  it('a payment not settled: no figures and no further request', async () => {
    routes = { [`/pg/payments/${PAYMENT}/`]: payment(false) };
    const out = await human();
    expect(out).toMatch(/settlement_id\s+not settled/);
    expect(out).not.toMatch(/^\s*(fee|gst|net)\s/m);
    expect(server.attempts.map((a) => a.path)).toEqual([`/pg/payments/${PAYMENT}/`]);
  });
});
