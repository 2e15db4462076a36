// The rails, for agents: on production nothing sandbox-only is offered, writes need
// --allow-production and then go in two steps (preview + one-time token bound to the request,
// valid 5 minutes); --read-only offers no write at all. A fake production gateway on 127.0.0.1
// logs every request it receives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess } from '../helpers/mcp.js';

const SECRET = 'sk_live_rails_9c41d2e7';
const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir };
const seen: { method: string; path: string; body: string }[] = [];
let server: Server;
let now = Date.parse('2026-11-28T09:00:00Z');
const clock = () => new Date(now);

const MERCHANT = { merchant_id: '4242', company_details: { legal_name: 'Acme Exports Pvt Ltd', website: 'https://old.acme.example' }, settlement_details: { bank_name: 'HDFC Bank' }, kyc_status: 'APPROVED' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', body });
      let data: unknown = {};
      if (req.url?.startsWith('/partners/merchants/4242/') && req.method === 'GET') data = MERCHANT;
      else if (req.url?.startsWith('/partners/merchants/4242/')) data = { merchant_id: '4242', updated_fields: ['company_details'] };
      else if (req.url === '/pg/refunds/') data = { refund_id: 'RF1000000001', payment_id: 'PR1000000001', refund_amount: 100, refund_status: 'initiated' };
      // The repeat guard's read (vendor 2.3: the list comes without the envelope): no refunds yet.
      const text = req.url?.startsWith('/pg/refunds/?') ? JSON.stringify({ count: 0, next: null, previous: null, results: [] }) : JSON.stringify({ success: true, message: 'ok', data });
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const added = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', url, '--client-id', 'cid_live', '--client-secret-stdin'], { env, input: `${SECRET}\n` });
  expect(added.code, added.stderr).toBe(0);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

async function toolsOf(argv: string[]) {
  const session = await mcpInProcess(['-p', 'live', 'mcp', '--toolsets', 'all', ...argv], { env, clock });
  const { tools } = await session.client.listTools();
  return { session, tools };
}

const writes = () => seen.filter((s) => s.method !== 'GET');

describe('pgw mcp on a production profile', () => {
  it('without --allow-production: read tools only, nothing sandbox-only, and it says so', async () => {
    const { session, tools } = await toolsOf([]);
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
    expect(tools.filter((t) => t.name.startsWith('sandbox_') || t.name.startsWith('events_') || t.name === 'settle_mark').map((t) => t.name)).toEqual([]);
    // Every tool reaches the gateway over the network but the offline calculator.
    expect(tools.filter((t) => t.annotations?.openWorldHint !== true).map((t) => t.name)).toEqual(['settle_calc']);
    expect(session.stderr()).toContain('read tools only');
    expect(await session.close()).toBe(0);
  });

  it('--read-only lists no tool with readOnlyHint false, on production and on the sandbox', async () => {
    const { session, tools } = await toolsOf(['--read-only', '--allow-production']);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true)).toEqual([]);
    await session.close();
    const local = await mcpInProcess(['mcp', '--read-only'], { env: { PGW_CONFIG_DIR: tmp.dir } });
    const listed = (await local.client.listTools()).tools;
    expect(listed.some((t) => t.name === 'sandbox_clock_show')).toBe(true);
    expect(listed.filter((t) => t.annotations?.readOnlyHint !== true)).toEqual([]);
    await local.close();
  });

  it('a write without a token sends nothing and returns a preview and a token; the token sends exactly that request, once', async () => {
    const { session, tools } = await toolsOf(['--allow-production']);
    const refund = tools.find((t) => t.name === 'refund_create')!;
    expect(refund.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(refund.inputSchema.properties ?? {})).toContain('confirmation_token');
    expect(tools.some((t) => t.name.startsWith('sandbox_'))).toBe(false);

    const before = writes().length;
    const preview = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 100 });
    expect(preview.isError, preview.text).toBe(false);
    expect(writes().length).toBe(before); // nothing sent
    const request = (preview.data.preview as { request: { method: string; url: string; body: unknown; headers: Record<string, string> } }).request;
    expect(request).toMatchObject({ method: 'POST', body: { payment_id: 'PR1000000001', refund_amount: '100.00' } });
    expect(JSON.stringify(preview)).not.toContain(SECRET);
    const token = preview.data.confirmation_token as string;
    expect(token).toMatch(/^pgwc_/);
    expect(preview.text).toContain('Nothing was sent');

    // The token for another request (another amount): refused, nothing sent, and the token is kept
    // for the request it was issued for, which it then sends (100 and "100.00" are one amount).
    const other = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 900, confirmation_token: token });
    expect(other.isError).toBe(true);
    expect(other.data.error).toMatchObject({ code: 'CONFIRMATION_MISMATCH' });
    expect(writes().length).toBe(before);
    const sent = await callTool(session.client, 'refund_create', { amount: 100, payment_id: 'PR1000000001', confirmation_token: token });
    expect(sent.isError, sent.text).toBe(false);
    expect(sent.data.refund_id).toBe('RF1000000001');
    expect(writes().length).toBe(before + 1);
    expect(JSON.parse(writes().at(-1)!.body)).toEqual({ payment_id: 'PR1000000001', refund_amount: '100.00' });

    // Twice: refused.
    const again = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 100, confirmation_token: token });
    expect(again.data.error).toMatchObject({ code: 'CONFIRMATION_USED' });
    const unknown = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 100, confirmation_token: 'pgwc_forged' });
    expect(unknown.data.error).toMatchObject({ code: 'CONFIRMATION_UNKNOWN' });
    expect(writes().length).toBe(before + 1);

    // After 5 minutes: refused.
    const late = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 100 });
    now += 5 * 60_000 + 1000;
    const expired = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: 100, confirmation_token: late.data.confirmation_token });
    expect(expired.data.error).toMatchObject({ code: 'CONFIRMATION_EXPIRED' });
    expect(writes().length).toBe(before + 1);
    await session.close();
  });

  it("merchant_update's preview shows each field current → new, read from the gateway; nothing is patched", async () => {
    const { session } = await toolsOf(['--allow-production']);
    const before = writes().length;
    const preview = await callTool(session.client, 'merchant_update', { merchant_id: '4242', company_details: { website: 'https://new.acme.example' } });
    expect(preview.isError, preview.text).toBe(false);
    expect((preview.data.preview as { changes: unknown }).changes).toEqual([{ field: 'company_details.website', current: 'https://old.acme.example', new: 'https://new.acme.example', unchanged: false }]);
    expect(writes().length).toBe(before);
    const sent = await callTool(session.client, 'merchant_update', { merchant_id: '4242', company_details: { website: 'https://new.acme.example' }, confirmation_token: preview.data.confirmation_token });
    expect(sent.isError, sent.text).toBe(false);
    expect(writes().at(-1)).toMatchObject({ method: 'PATCH', path: '/partners/merchants/4242/' });
    await session.close();
  });

  it('invalid input is refused before any request, naming the field', async () => {
    const { session } = await toolsOf(['--allow-production']);
    const count = seen.length;
    const bad = await callTool(session.client, 'refund_create', { payment_id: 'PR1000000001', amount: -5 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/amount/);
    const badLink = await callTool(session.client, 'link_extend', { link_id: 'LNK1', expires_in: 'soon' });
    expect(badLink.isError).toBe(true);
    expect(badLink.text).toMatch(/expires_in/);
    expect(seen.length).toBe(count);
    await session.close();
  });
});
