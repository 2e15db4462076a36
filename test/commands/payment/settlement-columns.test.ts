// payment list knows about settlement, and payment get <ids> -o csv (issue 41 item 2), against a
// gateway stub: the search names no settlement, so each payment's details are read (one GET each,
// documented: spec 4.3), the state filter takes any case, and bad input sends nothing.
import { describe, expect, it } from 'vitest';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { parseCsv } from '../../helpers/csv.js';

const gw = useGatewayStub({ secret: 'secret-0000-1111' });
const json = { headers: { 'content-type': 'application/json' } };
const ok = (data: unknown) => JSON.stringify({ success: true, message: 'ok', data });

const entry = (n: number, status = 'captured') => ({
  payment_id: `PR000000000${n}`,
  merchant: { id: '1', name: 'M' },
  order_id: `OD000000000${n}`,
  invoice_number: `INV-${n}`,
  reference_id: `ref-${n}`,
  buyer: { name: 'Asha', email: 'a@example.com', phone: '+919876543210' },
  amount: { amount: '1000', total_amount: '1000', currency: 'INR' },
  created_at: '2026-11-0' + n + 'T10:00:00Z',
  mop_type: 'upi',
  status,
});

/** Get Payment (spec 2.7) with a vendor 11.3 state, settled in `st` when given. */
const payment = (n: number, state: string, st?: string) => ({
  payment_id: `PR000000000${n}`,
  status: state === 'PAYMENT_FAILED' ? 'failed' : 'captured',
  order: { order_id: `OD000000000${n}`, reference_id: `ref-${n}`, amount: '1000.00', currency: 'INR', buyer: { name: 'Asha', email: 'a@example.com' }, invoice: { number: `INV-${n}` } },
  settlement: st ? { id: st, settlement_id: 'uuid-1', utr_number: 'UTR9', settlement_completed_at: '2026-11-20T10:00:00Z', merchant_service_fee: '50.00', merchant_service_tax: '9.00', merchant_net_amount: '941.00' } : null,
  settlement_status: state,
  refund: n === 1 ? [{ refund_id: 'RF0000000001', refund_amount: 100, refund_status: 'refunded' }] : [],
  mop_type: 'upi',
  created_date: '2026-11-0' + n + 'T10:00:00Z',
});

function stubSearch(results: unknown[]) {
  gw.pool.intercept({ method: 'GET', path: (p) => p.startsWith('/pg/payments/?') }).reply(200, ok({ count: results.length, page: 1, page_size: 100, next: null, previous: null, results }), json);
}
const stubPayment = (p: ReturnType<typeof payment>) => gw.pool.intercept({ method: 'GET', path: `/pg/payments/${p.payment_id}/` }).reply(200, ok(p), json);

describe('payment list --settlement-status', () => {
  it('reads each payment once, keeps the states asked for (any case, IN_REVIEW as UNDER_REVIEW); JSON carries the fields', async () => {
    stubSearch([entry(1), entry(2), entry(3, 'failed'), entry(4)]);
    stubPayment(payment(1, 'SETTLED', 'ST0000000001'));
    stubPayment(payment(2, 'ACTION_REQUIRED'));
    stubPayment(payment(3, 'PAYMENT_FAILED'));
    stubPayment(payment(4, 'UNDER_REVIEW'));
    const r = await gw.pgw(['payment', 'list', '--settlement-status', 'action_required, in_review', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((p: any) => [p.payment_id, p.settlement_status, p.settlement_id, p.reference_id])).toEqual([
      ['PR0000000002', 'ACTION_REQUIRED', null, 'ref-2'],
      ['PR0000000004', 'UNDER_REVIEW', null, 'ref-4'],
    ]);
  });

  it('the table and CSV show the state in capitals and the ST…; JSON without the filter is as answered (no reads)', async () => {
    stubSearch([entry(1), entry(2)]);
    stubPayment(payment(1, 'SETTLED', 'ST0000000001'));
    stubPayment({ ...payment(2, 'action_required') });
    const csv = parseCsv((await gw.pgw(['payment', 'list', '-o', 'csv'])).stdout);
    expect(csv[0]!.slice(-2)).toEqual(['settlement_status', 'settlement_id']);
    expect(csv.slice(1).map((row) => row.slice(-2))).toEqual([['SETTLED', 'ST0000000001'], ['action_required', '']]);
    // Phone numbers are written as they are (issue 41 item 5).
    expect(csv[1]![csv[0]!.indexOf('buyer_phone')]).toBe('+919876543210');

    stubSearch([entry(1), entry(2)]);
    stubPayment(payment(1, 'SETTLED', 'ST0000000001'));
    stubPayment(payment(2, 'action_required'));
    const table = await gw.pgw(['payment', 'list', '-o', 'table', '--wide']);
    expect(table.stdout).toMatch(/PR0000000002 .*ACTION_REQUIRED/);
    expect(table.stdout).toMatch(/PR0000000001 .*SETTLED\s+│ ST0000000001/);

    stubSearch([entry(1)]);
    const plain = await gw.pgw(['payment', 'list', '--json']);
    expect(JSON.parse(plain.stdout)[0]).not.toHaveProperty('settlement_status');
  });

  it('bad input is exit 2 and nothing is sent: an unknown state, --page with the filter', async () => {
    for (const [args, message] of [
      [['--settlement-status', 'settled,paid'], '"paid" is not a settlement state: one of NOT_APPLICABLE,'],
      [['--settlement-status', ','], '--settlement-status: give one or more of'],
      [['--settlement-status', 'settled', '--page', '2'], '--page cannot be combined with --settlement-status'],
    ] as const) {
      const r = await gw.pgw(['payment', 'list', ...args, '-o', 'table']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('payment get <ids> -o csv', () => {
  it('the several-IDs table as CSV, with the settlement, the own figures and what was refunded', async () => {
    stubPayment(payment(1, 'SETTLED', 'ST0000000001'));
    stubPayment(payment(2, 'ACTION_REQUIRED'));
    const r = await gw.pgw(['payment', 'get', 'PR0000000001', 'PR0000000002', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = parseCsv(r.stdout);
    const at = (row: string[], key: string) => row[head!.indexOf(key)];
    expect(head).toEqual(expect.arrayContaining(['payment_id', 'status', 'amount', 'currency', 'order_id', 'reference_id', 'invoice_number', 'settlement_status', 'settlement_id', 'utr_number', 'fee', 'gst', 'net', 'refunded', 'charged_back']));
    expect(rows.map((row) => [at(row, 'payment_id'), at(row, 'settlement_status'), at(row, 'settlement_id'), at(row, 'net'), at(row, 'refunded')])).toEqual([
      ['PR0000000001', 'SETTLED', 'ST0000000001', '941.00', '100.00'],
      ['PR0000000002', 'ACTION_REQUIRED', '', '', ''],
    ]);
  });

  it('one ID -o csv is a one-row document', async () => {
    stubPayment(payment(2, 'ACTION_REQUIRED'));
    const rows = parseCsv((await gw.pgw(['payment', 'get', 'PR0000000002', '-o', 'csv'])).stdout);
    expect(rows).toHaveLength(2);
  });
});
