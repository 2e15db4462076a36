// settle calc --from-settlement (issue 41 item 4): a settlement recomputed from the gateway's own
// rows (one GET each), every figure set beside the gateway's; exit 0 when all agree, 1 naming the
// ones that differ. undici MockAgent, every stub used.
import { describe, expect, it } from 'vitest';
import { useGatewayStub } from '../../helpers/gateway-stub.js';

const gw = useGatewayStub({ secret: 'secret-0000-1111' });
const ok = (data: unknown) => JSON.stringify({ success: true, message: 'Settlements fetched successfully', data });
const json = { headers: { 'content-type': 'application/json' } };

/** spec 4.6's check case: 1000.00 less a refund of 100.00 and a chargeback of 50.00 = 791.00. */
const CHECK_CASE = {
  settlement_id: 'ST0000000001',
  utr_number: 'UTR1',
  settlement_completed_date: '2026-11-15T10:00:00Z',
  forex_rate: 96,
  settlement_amount: 791,
  settlement_currency: 'INR',
  transactions: [
    { settlement_type: 'capture', transaction_id: 'PR0000000001', transaction_amount: 1000, merchant_service_fee: 50, merchant_service_tax: 9, merchant_net_amount: 941 },
    { settlement_type: 'refund', transaction_id: 'RF0000000001', transaction_amount: 100, merchant_service_fee: 0, merchant_service_tax: 0, merchant_net_amount: -100 },
    { settlement_type: 'chargeback', transaction_id: 'CB0000000001', transaction_amount: 50, merchant_service_fee: 0, merchant_service_tax: 0, merchant_net_amount: -50 },
  ],
};

const stub = (body: unknown) => gw.pool.intercept({ path: `/pg/settlements/${(body as { settlement_id: string }).settlement_id}/`, method: 'GET' }).reply(200, ok(body), json);

describe('settle calc --from-settlement', () => {
  it("agrees with the gateway's own rows: the calc shape with IDs, exit 0", async () => {
    stub(CHECK_CASE);
    const r = await gw.pgw(['settle', 'calc', '--from-settlement', 'ST0000000001', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      settlement_id: 'ST0000000001',
      settlement_amount: '791.00',
      settlement_charges: '50.00',
      settlement_gst: '9.00',
      forex_rate: '96',
      payments: [{ payment_id: 'PR0000000001', amount: '1000.00', fee: '50.00', gst: '9.00', net: '941.00' }],
      refunds: ['100.00'],
      chargebacks: ['50.00'],
      refund_ids: ['RF0000000001'],
      chargeback_ids: ['CB0000000001'],
      gateway_settlement_amount: '791.00',
      agrees: true,
      differences: [],
    });
  });

  it('the table names each row by its ID and says it agrees', async () => {
    stub(CHECK_CASE);
    const r = await gw.pgw(['settle', 'calc', '--from-settlement', 'st0000000001', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/refund RF0000000001\s*│\s*100\.00/);
    expect(r.stdout).toMatch(/chargeback CB0000000001/);
    expect(r.stdout).toContain('ST0000000001 agrees ✓: 791.00 and each row as spec 4.6 computes them');
  });

  it('a settlement priced otherwise differs: each figure named, exit 1 SETTLEMENT_DIFFERS', async () => {
    const priced = { ...CHECK_CASE, settlement_amount: 801, transactions: [{ ...CHECK_CASE.transactions[0], merchant_service_fee: 40, merchant_service_tax: 9, merchant_net_amount: 951 }, ...CHECK_CASE.transactions.slice(1)] };
    stub(priced);
    const r = await gw.pgw(['settle', 'calc', '--from-settlement', 'ST0000000001', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ST0000000001 differs: 3 figures are not spec 4.6');
    expect(r.stdout).toContain('PR0000000001 fee: gateway 40.00, computed 50.00');
    expect(r.stdout).toContain('ST0000000001 settlement_amount: gateway 801.00, computed 791.00');
    const j = await (stub(priced), gw.pgw(['settle', 'calc', '--from-settlement', 'ST0000000001', '--json']));
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout).agrees).toBe(false);
    expect(JSON.parse(j.stderr).error.code).toBe('SETTLEMENT_DIFFERS');
  });

  it('bad input is exit 2 with nothing sent: amounts beside it, a refund ID, null', async () => {
    for (const [args, message] of [
      [['--from-settlement', 'ST0000000001', '--payment', '100'], 'drop --payment'],
      [['--from-settlement', 'RF0000000001'], 'RF0000000001 is a refund'],
      [['--from-settlement', 'null'], 'is not an ID'],
    ] as const) {
      const r = await gw.pgw(['settle', 'calc', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
