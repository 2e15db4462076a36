// The support desk's searches and views against a gateway that is not pgw's sandbox (issue 33
// items 5-7): one that ignores invoice_number, filters reference_id exactly, names no refunds on
// an order's payment entries and no reference on a refund. undici MockAgent, every stub used.
import { describe, expect, it } from 'vitest';
import { useGatewayStub } from '../../helpers/gateway-stub.js';

const gw = useGatewayStub({ secret: 'secret-0000-1111' });
const json = { headers: { 'content-type': 'application/json' } };
const ok = (data: unknown) => JSON.stringify({ success: true, message: 'ok', data });

const entry = (id: string, reference: string, invoice: string | null) => ({
  payment_id: id,
  merchant: { id: '1', name: 'M' },
  order_id: `OD${id.slice(2)}`,
  invoice_number: invoice,
  reference_id: reference,
  buyer: { name: 'B', email: null, phone: null },
  amount: { amount: '2499', total_amount: '2499', currency: 'INR' },
  created_at: '2026-11-01T10:00:00Z',
  mop_type: 'upi',
  status: 'captured',
});

/** Answer GET /pg/payments/ page `page` with these entries; `check` sees its query (MockAgent may match a request more than once). */
function stubPage(page: number, results: unknown[], next: boolean, check: (q: URLSearchParams) => void) {
  gw.pool
    .intercept({
      method: 'GET',
      path: (p) => {
        const url = new URL(p, 'https://gw.test');
        if (url.pathname !== '/pg/payments/' || url.searchParams.get('page') !== String(page)) return false;
        check(url.searchParams);
        return true;
      },
    })
    .reply(200, ok({ count: 3, page, page_size: 2, next: next ? `https://gw.test/pg/payments/?page=${page + 1}` : null, previous: null, results }), json);
}

describe('payment list against a gateway that filters less', () => {
  it('--invoice-number is sent, and every page is checked here when the gateway ignores it', async () => {
    const sent = new Map<string | null, string | null>();
    const check = (q: URLSearchParams) => sent.set(q.get('page'), q.get('invoice_number'));
    stubPage(1, [entry('PR0000000001', 'A-1', 'INV-1'), entry('PR0000000002', 'A-2', 'INV-2')], true, check);
    stubPage(2, [entry('PR0000000003', 'A-3', 'INV-1')], false, check);
    const r = await gw.pgw(['payment', 'list', '--invoice-number', 'INV-1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual(['PR0000000001', 'PR0000000003']);
    expect([...sent]).toEqual([['1', 'INV-1'], ['2', 'INV-1']]);
  });

  it("--reference-id 'INV-7781*': no reference_id sent, every page read, the prefix kept", async () => {
    const sent = new Map<string | null, string | null>();
    const check = (q: URLSearchParams) => sent.set(q.get('page'), `${q.get('reference_id')} ${q.get('page_size')}`);
    stubPage(1, [entry('PR0000000001', 'INV-7781-1', null), entry('PR0000000002', 'INV-7780', null)], true, check);
    stubPage(2, [entry('PR0000000003', 'INV-7781-2', null)], false, check);
    // The settlement columns: the search entry names none, so each listed payment is read (issue 41).
    gw.pool.intercept({ method: 'GET', path: '/pg/payments/PR0000000001/' }).reply(200, ok({ payment_id: 'PR0000000001', settlement_status: 'SETTLED', settlement: { id: 'ST0000000007' } }), json);
    gw.pool.intercept({ method: 'GET', path: '/pg/payments/PR0000000003/' }).reply(200, ok({ payment_id: 'PR0000000003', settlement_status: 'action_required', settlement: null }), json);
    const r = await gw.pgw(['payment', 'list', '--reference-id', 'INV-7781*', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['INV-7781-1', 'INV-7781-2']);
    expect(lines.slice(1).map((l) => l.split(',').slice(-2))).toEqual([['SETTLED', 'ST0000000007'], ['action_required', '']]);
    expect(lines[1]).toContain(',2499.00,INR,'); // one money form: the gateway's 2499 has 2 decimals
    // No reference sent; 100 a page (not the gateway's 10), since every page is read.
    expect([...sent]).toEqual([['1', 'null 100'], ['2', 'null 100']]);
  });
});

describe('order get against a gateway whose payment entries name no refunds', () => {
  it('reads Get Payment for each captured payment, and shows it refunded (JSON untouched)', async () => {
    const order = {
      order_id: 'OD0000000001',
      reference_id: 'INV-7781-1',
      amount: '2499.00',
      currency: 'INR',
      status: 'payment_successful',
      payments: [
        { payment_id: 'PR0000000001', status: 'captured', mop_type: 'upi', created_at: '2026-11-01T10:00:00Z', settlement: null },
        { payment_id: 'PR0000000002', status: 'failed', mop_type: 'upi', created_at: '2026-11-01T09:00:00Z', settlement: null },
      ],
    };
    gw.pool.intercept({ method: 'GET', path: '/pg/orders/OD0000000001/' }).reply(200, ok(order), json);
    gw.pool
      .intercept({ method: 'GET', path: '/pg/payments/PR0000000001/' })
      .reply(200, ok({ payment_id: 'PR0000000001', status: 'captured', refund: [{ refund_id: 'RF0000000001', refund_amount: 2499, refund_status: 'refunded' }] }), json);
    const r = await gw.pgw(['order', 'get', 'OD0000000001', '-o', 'table'], { columns: 160 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('captured · refunded 2499.00');
    expect(r.stdout).toMatch(/RF0000000001\s.*refund\s.*PR0000000001\s.*2499\.00\s.*INR\s.*refunded/);
  });

  it('a failed refund is listed but not summed', async () => {
    const order = { order_id: 'OD0000000002', amount: '10.00', currency: 'INR', status: 'payment_successful', payments: [{ payment_id: 'PR0000000009', status: 'captured', refund: [{ refund_id: 'RF0000000009', refund_amount: 10, refund_status: 'failed' }] }] };
    gw.pool.intercept({ method: 'GET', path: '/pg/orders/OD0000000002/' }).reply(200, ok(order), json);
    const r = await gw.pgw(['order', 'get', 'OD0000000002', '-o', 'table'], { columns: 160 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('refunded 10.00');
    expect(r.stdout).toMatch(/RF0000000009\s.*10\.00\s.*failed/);
  });
});

describe('refund list against a gateway whose refunds carry no reference', () => {
  it('each distinct payment is read once for the reference (table and CSV), JSON as answered', async () => {
    const refunds = [
      { refund_id: 'RF0000000001', payment_id: 'PR0000000001', refund_amount: 2499, refund_status: 'refunded', currency: 'INR' },
      { refund_id: 'RF0000000002', payment_id: 'PR0000000001', refund_amount: 1, refund_status: 'initiated', currency: 'INR' },
    ];
    gw.pool.intercept({ method: 'GET', path: (p) => p.startsWith('/pg/refunds/?') }).reply(200, JSON.stringify({ count: 2, page: 1, page_size: 250, next: null, previous: null, results: refunds }), json);
    gw.pool.intercept({ method: 'GET', path: '/pg/payments/PR0000000001/' }).reply(200, ok({ payment_id: 'PR0000000001', order: { reference_id: 'INV-7781-1' } }), json);
    const r = await gw.pgw(['refund', 'list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\r\n');
    // reference_id keeps its position; the settlement columns follow it, empty where the gateway gives none.
    expect(head!.split(',').slice(-3)).toEqual(['reference_id', 'settlement_status', 'settlement_id']);
    expect(rows.map((l) => [l.split(',')[3], l.split(',').at(-3), l.split(',').at(-1)])).toEqual([['2499.00', 'INV-7781-1', ''], ['1.00', 'INV-7781-1', '']]);
  });
});
