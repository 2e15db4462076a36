// The preview is the request (issue 43 item 3), through the MCP SDK's client on a production
// profile with --allow-production, against a fake gateway on 127.0.0.1 that logs every request:
// for every two-step tool, what the confirmed call sends is what its preview showed, its generated
// values (a reference_id, an expiry from a duration) included, minutes later; a file changed
// after its preview is refused and the token kept; amounts equal as money bind one token.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess, type McpSession, type ToolCall } from '../helpers/mcp.js';
import { MCP_SAMPLES } from '../helpers/mcp-samples.js';

const tmp = tempConfigDir();
const files = mkdtempSync(join(tmpdir(), 'pgw-preview-files-'));
const env = { PGW_CONFIG_DIR: tmp.dir };
const seen: { method: string; path: string; body: Buffer }[] = [];
let server: Server;
let session: McpSession;
let now = Date.parse('2026-11-28T09:00:00Z');

const MERCHANT = { merchant_id: '4242', company_details: { legal_name: 'Acme Exports Pvt Ltd', website: 'https://old.acme.example' }, settlement_details: { bank_name: 'HDFC Bank' }, kyc_status: 'APPROVED' };
const PDF_A = Buffer.from('%PDF-1.4\n% the invoice as previewed\n%%EOF\n');
const PDF_B = Buffer.from('%PDF-1.4\n% another invoice, put in its place\n%%EOF\n');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: Buffer.concat(chunks) });
      // A GET reads a list (refunds, sub-merchants) or the merchant; a write gets an answer of each kind's IDs.
      // A payment's verification (read by payment_verify before its first upload, issue 42) takes details and asks for an invoice.
      const checklist = { settlement_status: 'ACTION_REQUIRED', business_model: null, purpose_code: null, fields: [], documents: [{ code: 'invoice', waivable: false }] };
      const data = req.method === 'GET' ? (req.url?.endsWith('/verification/') ? checklist : { ...MERCHANT, count: 0, next: null, previous: null, results: [] }) : { ref: 'REF-1', order_id: 'OD1000000000000001', refund_id: 'RF1000000001', link_id: 'PR1000000002', status: 'ok' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const added = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', url, '--client-id', 'cid_live', '--client-secret-stdin'], { env, input: 'sk_live_preview_7781\n' });
  expect(added.code, added.stderr).toBe(0);
  session = await mcpInProcess(['-p', 'live', 'mcp', '--toolsets', 'all', '--allow-production'], { env, clock: () => new Date(now) });
}, 30_000);

afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(files, { recursive: true, force: true });
  tmp.cleanup();
});

const writes = () => seen.filter((s) => s.method !== 'GET');

interface Previewed {
  method: string;
  url: string;
  body?: unknown;
}

/** The requests a preview shows: one, or (payment_verify) each upload and the submit. */
function previewed(r: ToolCall): Previewed[] {
  const request = (r.data.preview as { request: Previewed & { items?: Previewed[] } }).request;
  return request.items ?? [request];
}

/** The sent request matches the previewed one: method, path, and the body (a form's file by its bytes). */
function expectSame(tool: string, shown: Previewed, sent: (typeof seen)[number], file?: Buffer): void {
  const url = new URL(shown.url);
  expect(`${sent.method} ${sent.path}`, tool).toBe(`${shown.method} ${url.pathname}${url.search}`);
  const form = (shown.body as { multipart?: { name: string; value?: string; filename?: string; bytes?: number }[] } | undefined)?.multipart;
  if (form !== undefined) {
    const raw = sent.body.toString('latin1');
    for (const part of form) {
      if (part.filename === undefined) expect(raw, `${tool}: ${part.name}`).toContain(`name="${part.name}"\r\n\r\n${part.value}\r\n`);
      else expect(sent.body.indexOf(file!), `${tool}: the previewed bytes of ${part.filename}`).toBeGreaterThan(0);
    }
    return;
  }
  // The submit after uploads names each upload's ref, which the preview could only announce.
  const body = JSON.parse(JSON.stringify(shown.body ?? null).replace(/<ref of [^>]+>/g, 'REF-1'));
  expect(sent.body.length === 0 ? null : JSON.parse(sent.body.toString('utf8')), tool).toEqual(body);
}

/** A copy of the invoice for one tool, as previewed (PDF_A). */
function invoiceFile(name: string): string {
  const path = join(files, name);
  writeFileSync(path, PDF_A);
  return path;
}

describe('every two-step tool sends what its preview showed', () => {
  it('each one, minutes after its preview, with the values pgw generated for it', async () => {
    const { tools } = await session.client.listTools();
    const twoStep = tools.filter((t) => Object.hasOwn(t.inputSchema.properties ?? {}, 'confirmation_token')).map((t) => t.name);
    expect(twoStep.length).toBeGreaterThan(10);
    const args: Record<string, Record<string, unknown>> = {
      ...MCP_SAMPLES,
      order_documents: { ...MCP_SAMPLES.order_documents, file: invoiceFile('order.pdf') },
      payment_verify: { ...MCP_SAMPLES.payment_verify, documents: { invoice: invoiceFile('verify.pdf') } },
    };
    for (const name of twoStep) {
      const before = writes().length;
      const preview = await callTool(session.client, name, args[name]!);
      expect(preview.isError, `${name}: ${preview.text}`).toBe(false);
      expect(writes().length, `${name}: the preview sent nothing`).toBe(before);
      now += 3 * 60_000; // the person reads it; a recomputed expiry would differ now
      const sent = await callTool(session.client, name, { ...args[name], confirmation_token: preview.data.confirmation_token });
      expect(sent.isError, `${name}: ${sent.text}`).toBe(false);
      const shown = previewed(preview);
      const made = writes().slice(before);
      expect(made.length, name).toBe(shown.length);
      shown.forEach((s, i) => expectSame(name, s, made[i]!, PDF_A));
    }
  });

  it('the generated reference_id and the expiry from expires_in are in the preview and sent as shown', async () => {
    const order = await callTool(session.client, 'order_create', MCP_SAMPLES.order_create!);
    const link = await callTool(session.client, 'link_create', { ...MCP_SAMPLES.link_create, expires_in: '7d' });
    const shownOrder = previewed(order)[0]!.body as { reference_id: string };
    const shownLink = previewed(link)[0]!.body as { reference_id: string; expiry_date: string };
    expect(shownOrder.reference_id).toMatch(/^[a-z0-9]{13}$/);
    expect(Date.parse(shownLink.expiry_date)).toBe(now + 7 * 86_400_000);
    expect(order.text).toContain(`reference_id ${shownOrder.reference_id} (generated`);
    now += 4 * 60_000;
    await callTool(session.client, 'order_create', { ...MCP_SAMPLES.order_create, confirmation_token: order.data.confirmation_token });
    expect(JSON.parse(writes().at(-1)!.body.toString()).reference_id).toBe(shownOrder.reference_id);
    await callTool(session.client, 'link_create', { ...MCP_SAMPLES.link_create, expires_in: '7d', confirmation_token: link.data.confirmation_token });
    expect(JSON.parse(writes().at(-1)!.body.toString())).toMatchObject({ reference_id: shownLink.reference_id, expiry_date: shownLink.expiry_date });
  });
});

describe('a file is bound by its content', () => {
  it.each([
    ['order_documents', (file: string) => ({ ...MCP_SAMPLES.order_documents, file })],
    ['payment_verify', (file: string) => ({ payment_id: 'PR1000000001', documents: { invoice: file } })],
  ] as const)('%s: replaced after the preview, it is refused (nothing sent, the token kept); put back, it is sent', async (name, argsFor) => {
    const file = invoiceFile(`${name}-swap.pdf`);
    const args = argsFor(file);
    const preview = await callTool(session.client, name, args);
    expect(preview.isError, preview.text).toBe(false);
    expect((preview.data.preview as { files: { path: string; sha256: string }[] }).files).toEqual([{ path: file, sha256: sha256(PDF_A) }]);
    writeFileSync(file, PDF_B);
    const before = writes().length;
    const swapped = await callTool(session.client, name, { ...args, confirmation_token: preview.data.confirmation_token });
    expect(swapped.isError).toBe(true);
    expect(swapped.data.error).toMatchObject({ code: 'FILE_CHANGED', exit_code: 6 });
    expect(writes().length).toBe(before);
    writeFileSync(file, PDF_A); // the previewed bytes again
    const sent = await callTool(session.client, name, { ...args, confirmation_token: preview.data.confirmation_token });
    expect(sent.isError, sent.text).toBe(false);
    expect(writes().slice(before).some((w) => w.body.indexOf(PDF_A) > 0)).toBe(true);
  });
});

describe('amounts equal as money are one request', () => {
  it.each([
    ['refund_create', { payment_id: 'PR1000000003', amount: '1500.00' }, { payment_id: 'PR1000000003', amount: 1500 }],
    ['lrs_quote', { pan: 'ABCDE1234F', amount: '1200000.00', purpose_code: 'S0305' }, { pan: 'ABCDE1234F', amount: 1200000, purpose_code: 's0305' }],
  ] as const)('%s: previewed with one form, confirmed with the other', async (name, shown, confirmed) => {
    const preview = await callTool(session.client, name, { ...shown });
    const before = writes().length;
    const sent = await callTool(session.client, name, { ...confirmed, confirmation_token: preview.data.confirmation_token });
    expect(sent.isError, sent.text).toBe(false);
    expect(writes().length).toBe(before + 1);
    expectSame(name, previewed(preview)[0]!, writes().at(-1)!);
  });
});
