// pgw settle get <ST...> against undici MockAgent (every stub used, no network).
import { describe, expect, it } from 'vitest';
import { useGatewayStub } from '../../helpers/gateway-stub.js';

const gw = useGatewayStub({ secret: 'secret-0000-1111' });
const pgw = gw.pgw;

const ok = (data: unknown) => JSON.stringify({ success: true, message: 'settlement fetched successfully', data });
const json = { headers: { 'content-type': 'application/json' } };

/** spec 2.9 Get Settlement: amounts are JSON numbers. 1000 + 10.10 less a refund of 100. */
const SETTLEMENT = {
  settlement_id: 'ST0000000001',
  utr_number: 'UTR123456789',
  settlement_completed_date: '2026-01-15T10:20:30.123456Z',
  forex_rate: 96,
  settlement_amount: 850.5,
  settlement_currency: 'INR',
  transactions: [
    { settlement_type: 'capture', transaction_id: 'PR0000000001', transaction_amount: 1000, merchant_service_fee: 50, merchant_service_tax: 9, merchant_net_amount: 941, mop_type: 'upi', transaction_currency: 'INR', forex_rate: 96 },
    { settlement_type: 'capture', transaction_id: 'PR0000000002', transaction_amount: 10.1, merchant_service_fee: 0.51, merchant_service_tax: 0.09, merchant_net_amount: 9.5, mop_type: 'credit_card', transaction_currency: 'INR', forex_rate: 96 },
    { settlement_type: 'refund', transaction_id: 'RF0000000001', transaction_amount: 100, merchant_service_fee: 0, merchant_service_tax: 0, merchant_net_amount: -100, mop_type: 'upi', transaction_currency: 'INR', forex_rate: 96 },
  ],
  an_unknown_field: { kept: true },
};

function stubSettlement(id: string, status: number, body: string) {
  gw.pool.intercept({ path: `/pg/settlements/${id}/`, method: 'GET' }).reply(status, body, json);
}

const NOT_FOUND = (id: string) =>
  JSON.stringify({ success: false, error: { code: 'ERR_SETTLEMENT_002', message: 'Settlement not found', details: { settlement_id: `${id} not found` } } });

describe('settle get: one settlement', () => {
  it('JSON is the data object unchanged (numbers stay numbers, unknown fields kept)', async () => {
    stubSettlement('ST0000000001', 200, ok(SETTLEMENT));
    const r = await pgw(['settle', 'get', 'ST0000000001', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(SETTLEMENT);
    expect(r.stdout).toContain('"settlement_amount": 850.5');
  });

  it('the table shows the figures, one row per transaction with 2-decimal amounts, and totals', async () => {
    stubSettlement('ST0000000001', 200, ok(SETTLEMENT));
    const r = await pgw(['settle', 'get', 'ST0000000001', '-o', 'table']);
    expect(r.code).toBe(0);
    const line = (label: string) => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(r.stdout).toContain('Settlement ST0000000001');
    expect(line('settlement_amount')).toMatch(/850\.50 INR/);
    expect(line('forex_rate')).toMatch(/96/);
    expect(line('utr_number')).toContain('UTR123456789');
    expect(line('transaction_id')).toMatch(/amount INR.*fee.*gst.*net INR/);
    expect(line('PR0000000001')).toMatch(/capture.*1000\.00.*50\.00.*9\.00.*941\.00.*upi/);
    expect(line('PR0000000002')).toMatch(/10\.10.*0\.51.*0\.09.*9\.50.*credit_card/);
    expect(line('RF0000000001')).toMatch(/refund.*100\.00.*0\.00.*0\.00.*-100\.00/);
    // Gross of the captures; fee, tax and net over every row (net = settlement_amount).
    expect(line('total')).toMatch(/1010\.10.*50\.51.*9\.09.*850\.50/);
    expect(r.stdout).not.toContain('note:');
    // Two counts, each named for what it counts (issue 41 item 4).
    expect(line('captures')).toMatch(/captures\s+2$/);
    expect(line('rows ')).toMatch(/rows\s+3: 2 captures, 1 refund$/);
    // The reconciliation lines under the table: gross − fee − gst − refunds − chargebacks = net.
    const tail = r.stdout.slice(r.stdout.lastIndexOf('┘') + 2).split('\n');
    expect(tail.slice(0, 6)).toEqual([
      'gross (2 captures)  1010.10',
      '− fee                 50.51',
      '− gst                  9.09',
      '− refunds (1)        100.00',
      '− chargebacks (0)      0.00',
      '= net                850.50   settlement_amount 850.50: reconciles ✓',
    ]);
  });

  it('says so when the transactions do not add up to settlement_amount', async () => {
    stubSettlement('ST0000000001', 200, ok({ ...SETTLEMENT, settlement_amount: 900 }));
    const r = await pgw(['settle', 'get', 'ST0000000001', '-o', 'table']);
    expect(r.stdout).toContain('= net                850.50   settlement_amount 900.00: differs by 49.50');
    expect(r.stdout).not.toContain('reconciles');
  });

  it("names a net column that disagrees with the rows' amounts", async () => {
    const txs = SETTLEMENT.transactions.map((t, i) => (i === 0 ? { ...t, merchant_net_amount: 940 } : t));
    stubSettlement('ST0000000001', 200, ok({ ...SETTLEMENT, transactions: txs }));
    const r = await pgw(['settle', 'get', 'ST0000000001', '-o', 'table']);
    expect(r.stdout).toContain('settlement_amount 850.50: reconciles ✓');
    expect(r.stdout).toContain("note: the rows' net column adds up to 849.50, not 850.50");
  });

  it('unknown ID: exit 5, nothing on stdout; JSON mode prints the error object', async () => {
    stubSettlement('ST0000000009', 404, NOT_FOUND('ST0000000009'));
    const r = await pgw(['settle', 'get', 'ST0000000009', '--json']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'ERR_SETTLEMENT_002', message: 'Settlement not found (ERR_SETTLEMENT_002)', details: { settlement_id: 'ST0000000009 not found' }, status: 404 },
    });
  });

  it('a pasted ID that would change the path is refused before sending (exit 2)', async () => {
    const r = await pgw(['settle', 'get', '../orders/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a valid identifier');
  });
});

describe('settle get: several IDs', () => {
  it('a table in the order given; the failure reported per ID; exit code of the first failure', async () => {
    stubSettlement('ST0000000001', 200, ok(SETTLEMENT));
    stubSettlement('ST0000000009', 404, NOT_FOUND('ST0000000009'));
    stubSettlement('ST0000000002', 200, ok({ ...SETTLEMENT, settlement_id: 'ST0000000002', settlement_amount: 9.5, transactions: [] }));
    const r = await pgw(['settle', 'get', 'ST0000000001', 'ST0000000009', 'ST0000000002', '-o', 'table']);
    expect(r.code).toBe(5);
    const rows = r.stdout.split('\n').filter((l) => l.includes('ST000000000'));
    expect(rows[0]).toMatch(/ST0000000001.*850\.50.*INR.*3.*UTR123456789/);
    expect(rows[1]).toMatch(/ST0000000002.*9\.50.*0/);
    expect(r.stderr).toContain('error: ST0000000009: Settlement not found (ERR_SETTLEMENT_002)');
  });

  it('JSON: an array of the data objects, read from stdin with -', async () => {
    stubSettlement('ST0000000001', 200, ok(SETTLEMENT));
    stubSettlement('ST0000000002', 200, ok({ ...SETTLEMENT, settlement_id: 'ST0000000002' }));
    const r = await pgw(['settle', 'get', '-', '--json'], { input: 'ST0000000001\n# comment\n\nST0000000002\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { settlement_id: string }) => s.settlement_id)).toEqual(['ST0000000001', 'ST0000000002']);
  });
});
