// pgw mcp as an agent uses it: the built binary over stdio, driven by the MCP SDK's own client, on
// the embedded sandbox of a fresh config directory. Each result is checked against the same call
// made through the command line's --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpProcess, type McpSession } from '../helpers/mcp.js';

const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir, PATH: process.env.PATH ?? '' };
let mcp: McpSession;

async function cliJson(argv: string[]): Promise<unknown> {
  const r = await runCli([...argv, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  mcp = await mcpProcess(['mcp', '--toolsets', 'all'], env);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  tmp.cleanup();
});

const BUYER = { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210', address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' } };

describe('pgw mcp over stdio, on the embedded sandbox', () => {
  it('initializes as pgw and lists annotated tools, none of them open-world', async () => {
    expect(mcp.client.getServerVersion()?.name).toBe('pgw');
    expect(mcp.client.getServerCapabilities()?.tools).toBeDefined();
    expect(mcp.client.getInstructions()).toContain('embedded sandbox');
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['payment_get', 'payment_list', 'order_create', 'order_status', 'refund_create', 'refund_list', 'link_create', 'link_extend', 'settle_get', 'settle_recon', 'settle_calc', 'merchant_list', 'merchant_create', 'merchant_update', 'events_list', 'events_resend', 'sandbox_pay', 'sandbox_trigger', 'sandbox_refund_simulate', 'sandbox_clock_advance', 'sandbox_snapshot_save', 'sandbox_snapshot_restore', 'sandbox_fault_add', 'sandbox_fault_clear', 'sandbox_seed']) {
      expect(names).toContain(name);
    }
    for (const t of tools) {
      const a = t.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof a[hint], `${t.name} ${hint}`).toBe('boolean');
      expect(a.title, t.name).toBeTruthy();
      expect(a.openWorldHint, t.name).toBe(false);
      expect(t.outputSchema, `${t.name}: no output schema that describes none of the data`).toBeUndefined();
      expect(t.inputSchema.type, t.name).toBe('object');
    }
  });

  it('create an order, pay it, look it up, refund it, simulate the refund, settle, read the recon', async () => {
    const order = await callTool(mcp.client, 'order_create', { amount: 2500, return_url: 'https://example.com/return', buyer: BUYER, product: { name: 'Consultation', type_of_goods: 'service' }, invoice: { number: 'INV-2026-7', date: '2026-11-27' } });
    expect(order.isError, order.text).toBe(false);
    const orderId = order.data.order_id as string;
    expect(orderId).toMatch(/^OD/);
    expect(order.text).toContain('reference_id'); // the generated reference is said, as on stderr

    const paid = await callTool(mcp.client, 'sandbox_pay', { order_id: orderId });
    expect(paid.isError, paid.text).toBe(false);
    const paymentId = paid.data.payment_id as string;
    expect(paid.data.status).toBe('captured');

    // Look-ups: the same data as the command line's --json.
    const payment = await callTool(mcp.client, 'payment_get', { payment_id: ` ${paymentId.toLowerCase()}, ` }); // as pasted
    expect(payment.data).toEqual(await cliJson(['payment', 'get', paymentId]));
    const orderView = await callTool(mcp.client, 'order_get', { order_id: orderId });
    expect(orderView.data).toEqual(await cliJson(['order', 'get', orderId]));
    const list = await callTool(mcp.client, 'payment_list', { order_id: orderId });
    expect(list.data).toEqual({ items: await cliJson(['payment', 'list', '--order-id', orderId]) });

    const refund = await callTool(mcp.client, 'refund_create', { payment_id: paymentId, amount: '500' });
    expect(refund.isError, refund.text).toBe(false);
    const refundId = refund.data.refund_id as string;
    expect(Number(refund.data.refund_amount)).toBe(500); // the gateway's value, untouched (a number, vendor 2.1)

    const simulated = await callTool(mcp.client, 'sandbox_refund_simulate', { refund_id: refundId, status: 'REFUNDED' });
    expect(simulated.isError, simulated.text).toBe(false);
    const refundView = await callTool(mcp.client, 'refund_get', { refund_id: refundId });
    expect(refundView.data).toEqual(await cliJson(['refund', 'get', refundId]));
    expect(refundView.data.refund_status ?? refundView.data.status).toBe('refunded');

    const settled = await callTool(mcp.client, 'settle_mark', { payment_id: [paymentId], refund: [refundId] });
    expect(settled.isError, settled.text).toBe(false);
    const settlementId = settled.data.settlement_id as string;
    expect(settlementId).toBeTruthy();
    const recon = await callTool(mcp.client, 'settle_recon', { settlement_id: settlementId });
    expect(recon.data).toEqual({ items: await cliJson(['settle', 'recon', settlementId]) });
    const settlement = await callTool(mcp.client, 'settle_get', { settlement_id: settlementId });
    expect(settlement.data).toEqual(await cliJson(['settle', 'get', settlementId]));
    // The calculator agrees with what was settled (spec 4.6: one implementation).
    const calc = await callTool(mcp.client, 'settle_calc', { payments: ['2500.00'], refunds: ['500.00'] });
    expect(calc.data).toEqual(await cliJson(['settle', 'calc', '--payment', '2500.00', '--refund', '500.00']));
    expect(calc.data.settlement_amount).toBe(settled.data.settlement_amount);
  });

  it('a bank transfer: create a virtual account, credit it, read its payments as the CLI does', async () => {
    const created = await callTool(mcp.client, 'vba_create', {});
    expect(created.isError, created.text).toBe(false);
    const account = (created.data.items as { virtual_account_id: string }[])[0]!.virtual_account_id;
    const credit = await callTool(mcp.client, 'sandbox_vba_transfer', { virtual_account_id: account, amount: 12500, utr: 'UTR2026112801' });
    expect(credit.isError, credit.text).toBe(false);
    expect(credit.data).toMatchObject({ status: 'captured', settlement_status: 'action_required' });
    const payments = await callTool(mcp.client, 'vba_payments', { virtual_account_id: account });
    expect(payments.data).toEqual({ items: await cliJson(['vba', 'payments', account]) });
    const byUtr = await callTool(mcp.client, 'vba_payments', { virtual_account_id: account, utr: 'UTR2026112801' });
    expect(byUtr.data).toMatchObject({ payment_id: credit.data.payment_id, payment_utr: 'UTR2026112801' });
    const again = await callTool(mcp.client, 'sandbox_vba_transfer', { virtual_account_id: account, amount: 12500, utr: 'UTR2026112801' });
    expect(again.isError).toBe(true);
    expect(again.data.error).toMatchObject({ status: 409 });
  });

  it("the compliance tools: an order's invoice uploaded from a file, a PAN verified, an LRS quote", async () => {
    const order = await callTool(mcp.client, 'order_create', { amount: '900.00', return_url: 'https://example.com/return', buyer: BUYER, product: { name: 'Consultation', type_of_goods: 'service' }, invoice: { number: 'INV-2026-9', date: '2026-11-27' } });
    const orderId = order.data.order_id as string;
    const uploaded = await callTool(mcp.client, 'order_documents', { order_id: orderId, type: 'invoice', file: 'test/fixtures/invoice.pdf' });
    expect(uploaded.isError, uploaded.text).toBe(false);
    expect((uploaded.data.invoice as { file: string }).file).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/documents\/DOC/);
    const wrong = await callTool(mcp.client, 'order_documents', { order_id: orderId, type: 'invoice', file: 'package.json' });
    expect(wrong.isError).toBe(true);
    expect(wrong.data.error).toMatchObject({ exit_code: 2 }); // checked before anything is sent

    const pan = await callTool(mcp.client, 'pan_verify', { pan: 'ABCDE1234F', name: 'Asha Verma', dob: '1990-04-12' });
    expect(pan.data).toMatchObject({ verified: true });
    // vendor 11.6's worked example: 12,00,000 with nothing committed → taxable 2,00,000, TCS 4,000.
    const quote = await callTool(mcp.client, 'lrs_quote', { pan: 'ABCDE1234F', amount: 1200000, purpose_code: 'S0305' });
    expect(quote.isError, quote.text).toBe(false);
    expect(quote.data).toMatchObject({ taxable_inr: '200000.00', tcs_inr: '4000.00', total_payable_inr: '1211080.00' });
    expect(quote.data).toEqual(await cliJson(['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '1200000', '--purpose-code', 'S0305']));
  });

  it('the compliance flow as an agent walks it: a credit, its checklist answered in two calls, reviewed, settled', async () => {
    const created = await callTool(mcp.client, 'vba_create', {});
    const account = (created.data.items as { virtual_account_id: string }[])[0]!.virtual_account_id;
    const credit = await callTool(mcp.client, 'sandbox_vba_transfer', { virtual_account_id: account, amount: 1000, utr: 'UTRAGENT0001' });
    const pr = credit.data.payment_id as string;
    const first = await callTool(mcp.client, 'payment_verification', { payment_id: pr });
    expect((first.data.fields as { code: string }[]).map((f) => f.code)).toEqual(['business_model', 'purpose_code']);
    expect(first.data).toEqual(await cliJson(['payment', 'verification', pr]));
    const classified = await callTool(mcp.client, 'payment_verify', { payment_id: pr, fields: { business_model: 'B2B', purpose_code: 'S0802' } });
    expect(classified.data).toMatchObject({ status: 'incomplete' });
    const fields = {
      buyer_name: 'Acme Imports', buyer_address_line_1: '1 Main Street', buyer_city: 'Bengaluru', buyer_state: 'Karnataka', buyer_postal_code: '560034',
      buyer_email: 'ap@acme.example', buyer_phone: '+919876543210', invoice_number: 'INV-AGENT-1', invoice_date: '2026-11-01', invoice_amount: '1000.00', declaration: true,
    };
    const one = await callTool(mcp.client, 'payment_verify', { payment_id: pr, fields });
    expect(one.data).toEqual({ payment_id: pr, status: 'incomplete', outstanding: ['invoice'] });
    const two = await callTool(mcp.client, 'payment_verify', { payment_id: pr, documents: { invoice: 'test/fixtures/invoice.pdf' } });
    expect(two.isError, two.text).toBe(false);
    expect(two.data).toMatchObject({ status: 'in_review' });
    const early = await callTool(mcp.client, 'settle_mark', { payment_id: pr });
    expect(early.isError).toBe(true);
    expect(early.text).toContain(`${pr} is not verified`);
    const verified = await callTool(mcp.client, 'sandbox_verification', { payment_id: pr, status: 'VERIFIED' });
    expect(verified.isError, verified.text).toBe(false);
    const settled = await callTool(mcp.client, 'settle_mark', { payment_id: pr });
    expect(settled.data.settlement_id).toMatch(/^ST\d{10}$/);
    const payment = await callTool(mcp.client, 'payment_get', { payment_id: pr });
    expect(payment.data.settlement_status).toBe('SETTLED');
    const events = await callTool(mcp.client, 'events_list', { about: pr });
    const types = (events.data.items as { event_type: string }[]).map((e) => e.event_type);
    expect(types.sort()).toEqual(['PAYMENT_SUCCESSFUL', 'VERIFICATION_NEEDED', 'VERIFICATION_NEEDED']); // asked, then in review
    const settledEvents = await callTool(mcp.client, 'events_list', { about: settled.data.settlement_id, type: 'PAYMENT_SETTLED' });
    expect(settledEvents.data.items).toHaveLength(1);
  });

  it('errors are results: the code, the hint, the argument named; nothing is sent', async () => {
    const events = async () => ((await callTool(mcp.client, 'events_list', { limit: 1000 })).data.items as unknown[]).length;
    const before = await events();
    const bad = await callTool(mcp.client, 'refund_create', { payment_id: 'PR0000000001', amount: 'ten' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^error: amount: /);
    expect((bad.data.error as { code: string }).code).toBe('VALIDATION');
    const notAnId = await callTool(mcp.client, 'order_get', { order_id: 'INV-7781' });
    expect(notAnId.isError).toBe(true);
    expect(notAnId.data.error).toMatchObject({ code: 'NOT_AN_ID', exit_code: 2 });
    // The hint names the tool and its argument, not the command line's flag.
    expect(notAnId.text).toContain('payment_list reference_id INV-7781');
    expect(notAnId.text).not.toMatch(/--[a-z]/);
    const missing = await callTool(mcp.client, 'payment_get', { payment_id: 'PR9999999999' });
    expect(missing.isError).toBe(true);
    expect(missing.data.error).toMatchObject({ exit_code: 5 });
    expect(await events()).toBe(before);
    await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);
  });
});
