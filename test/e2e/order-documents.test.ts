// Order documents (vendor 11.1, limits of vendor 4.4; issue 36), the commands run in-process, on
// the embedded sandbox and on `pgw sandbox serve`: an invoice and air waybills uploaded, read back
// in order get and at the served addresses, every documented refusal with its HTTP status and code,
// the file checks before anything is sent, the address's life on the sandbox clock, a restart and a
// snapshot, and a browser's FormData (with CORS) against serve.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgwInProcess } from '../helpers/in-process.js';
import { killServes, startServe, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\nINVOICE-BYTES-7731\n%%EOF\n');
const PDF2 = Buffer.from('%PDF-1.7\nSECOND-INVOICE-BYTES-4409\n%%EOF\n');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF AWB-BYTES-5120'), Buffer.from([0xff, 0xd9])]);
const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-docs-'));
  const put = (name: string, data: Buffer) => {
    files[name] = join(dir, name);
    writeFileSync(files[name]!, data);
  };
  put('invoice.pdf', PDF);
  put('invoice2.pdf', PDF2);
  put('awb.jpg', JPEG);
  put('awb.jpeg', JPEG);
  put('renamed.pdf', JPEG); // a JPEG named .pdf
  put('notes.txt', Buffer.from('hello'));
  put('big.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024 - 8, 0x20)])); // 2 MiB + 1
  put('edge.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024 - 9, 0x20)])); // exactly 2 MiB
});
afterAll(() => {
  killServes();
  rmSync(dir, { recursive: true, force: true });
});

const ORDER = [
  '--amount', '2500', '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Scarf', '--goods', 'physical_goods', '--hs-code', '62141000', '--invoice-number', 'INV-77',
];

interface Target {
  name: string;
  configDir: string;
  /** Extra arguments that point pgw at the target (none: the embedded sandbox). */
  args: string[];
}

interface Details {
  order_id: string;
  invoice: { number: string | null; file: string | null };
  air_waybills: { number: string; file: string }[];
}

function pgwOn(t: Target) {
  return (args: string[]) => pgwInProcess([...t.args, ...args], { env: { PGW_CONFIG_DIR: t.configDir } });
}

async function json<T>(t: Target, args: string[]): Promise<T> {
  const r = await pgwOn(t)([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

async function newOrder(t: Target): Promise<string> {
  return (await json<{ order_id: string }>(t, ['order', 'create', ...ORDER])).order_id;
}

async function get(url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

/** The upload and read-back walk, the same on every target; `served` fetches what the URLs address. */
async function walk(t: Target, serveBase: string): Promise<void> {
  const order = await newOrder(t);
  const fresh = await json<Details>(t, ['order', 'get', order]);
  expect(fresh.invoice.file).toBeNull();
  expect(fresh.air_waybills).toEqual([]);

  const afterInvoice = await json<Details>(t, ['order', 'documents', order, '--type', 'invoice', '--file', files['invoice.pdf']!]);
  expect(afterInvoice.order_id).toBe(order);
  expect(afterInvoice.invoice.number).toBe('INV-77');
  expect(afterInvoice.invoice.file).toMatch(new RegExp(`^${serveBase.replace(/[.]/g, '\\.')}/documents/DOC\\d{10}/\\?expires=\\d+&signature=[0-9a-f]{32}$`));
  const awb1 = await json<Details>(t, ['order', 'documents', order, '--type', 'awb', '--file', files['awb.jpg']!, '--identifier', 'AWB-1']);
  const awb2 = await json<Details>(t, ['order', 'documents', order, '--type', 'awb', '--file', files['awb.jpeg']!, '--identifier', 'AWB-2']);
  expect(awb1.air_waybills.map((a) => a.number)).toEqual(['AWB-1']);
  expect(awb2.air_waybills.map((a) => a.number)).toEqual(['AWB-1', 'AWB-2']); // each AWB is added

  // order get shows them; the addresses serve the bytes as uploaded, with their type
  const read = await json<Details>(t, ['order', 'get', order]);
  const invoice = await get(read.invoice.file!);
  expect(invoice.status).toBe(200);
  expect(invoice.type).toBe('application/pdf');
  expect(invoice.body.equals(PDF)).toBe(true);
  const awb = await get(read.air_waybills[1]!.file);
  expect(awb.type).toBe('image/jpeg');
  expect(awb.body.equals(JPEG)).toBe(true);

  // the upload's own view on a terminal: what went up, and where each file is now
  const shown = await pgwOn(t)(['order', 'documents', order, '--type', 'awb', '--file', files['awb.jpg']!, '--identifier', 'AWB-3', '-o', 'table', '--wide']);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toMatch(new RegExp(`^order_id\\s+${order}$`, 'm'));
  expect(shown.stdout).toMatch(new RegExp(`^uploaded\\s+awb awb\\.jpg \\(${JPEG.length} bytes\\)$`, 'm'));
  expect(shown.stdout).toMatch(/^air waybills\s+AWB-1\s+http\S+$/m);
  expect(shown.stdout).toMatch(/^\s+AWB-3\s+http\S+$/m);
  expect(shown.stdout).not.toContain('AWB-BYTES');

  // on a terminal, order get lists them under Documents
  const table = await pgwOn(t)(['order', 'get', order, '-o', 'table', '--wide']);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toMatch(/^Documents$/m);
  expect(table.stdout).toMatch(/^ {2}invoice\s+http:\/\/\S+\/documents\/DOC\d{10}\//m);
  expect(table.stdout).toMatch(/^ {2}awb AWB-1\s+http/m);
  expect(table.stdout).toMatch(/^ {2}awb AWB-2\s+http/m);
  expect(table.stdout).toMatch(/^ {2}awb AWB-3\s+http/m);
  expect((await pgwOn(t)(['order', 'get', await newOrder(t), '-o', 'table'])).stdout).not.toMatch(/^Documents$/m);

  // a second invoice replaces the first: one invoice, the new bytes, the old address gone
  const replaced = await json<Details>(t, ['order', 'documents', order, '--type', 'invoice', '--file', files['invoice2.pdf']!, '--identifier', 'INV-77-rev2']);
  expect((await get(replaced.invoice.file!)).body.equals(PDF2)).toBe(true);
  const old = await get(read.invoice.file!);
  expect(old.status).toBe(404);
  expect(JSON.parse(old.body.toString()).error.code).toBe('ERR_DOCUMENT_001');
  expect(replaced.air_waybills).toHaveLength(3);

  // a tampered signature is no address
  const tampered = await get(replaced.invoice.file!.replace(/signature=[0-9a-f]/, (m) => (m.endsWith('0') ? m.slice(0, -1) + '1' : m.slice(0, -1) + '0')));
  expect(tampered.status).toBe(404);

  // the address lives 15 minutes on the sandbox clock
  const served = replaced.invoice.file!;
  await json(t, ['sandbox', 'clock', 'advance', '14m']);
  expect((await get(served)).status).toBe(200);
  await json(t, ['sandbox', 'clock', 'advance', '2m']);
  const expired = await get(served);
  expect(expired.status).toBe(403);
  expect(JSON.parse(expired.body.toString()).error).toMatchObject({ code: 'ERR_DOCUMENT_002', message: 'Document address expired' });
  // a new read gives a new address that works
  const again = await json<Details>(t, ['order', 'get', order]);
  expect(again.invoice.file).not.toBe(served);
  expect((await get(again.invoice.file!)).body.equals(PDF2)).toBe(true);
  await json(t, ['sandbox', 'clock', 'reset']);
}

/** Every documented refusal, through the commands and `pgw api`, with its status and code. */
async function refusals(t: Target): Promise<void> {
  const pgw = pgwOn(t);
  const order = await newOrder(t);
  // vendor 11.1: 404 ERR_ORDER_001, details.order_id (exit 5)
  const unknown = await pgw(['order', 'documents', 'OD00000000000001', '--type', 'invoice', '--file', files['invoice.pdf']!, '--json']);
  expect(unknown.code).toBe(5);
  expect(JSON.parse(unknown.stderr).error).toMatchObject({ code: 'ERR_ORDER_001', status: 404, details: { order_id: 'OD00000000000001 not found' } });
  // vendor 11.1: 400 ERR_ORDER_002, details per field (no multipart at all: every field missing)
  const bare = await pgw(['api', 'POST', `/pg/orders/${order}/documents/`, '--json']);
  expect(bare.code).toBe(1);
  expect(JSON.parse(bare.stderr).error).toMatchObject({
    code: 'ERR_ORDER_002',
    status: 400,
    details: { identifier: 'This field is required.', document_type: 'This field is required.', file: 'No file was submitted.' },
  });

  // checked before anything is sent: exit 2, and the order has no document
  for (const [file, why] of [
    [files['notes.txt']!, /--file: must be a pdf, jpg, jpeg file/],
    [files['renamed.pdf']!, /--file: is named as a PDF but its content is a JPEG/],
    [files['big.pdf']!, /--file: must be at most 2 MB \(2097152 bytes\); this one is 2097153 bytes/],
    [join(dir, 'missing.pdf'), /--file .*missing\.pdf: cannot read it \(ENOENT\)/],
  ] as const) {
    const r = await pgw(['-v', 'order', 'documents', order, '--type', 'invoice', '--file', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).not.toContain('> POST'); // -v logs every request: none was made
  }
  expect((await json<Details>(t, ['order', 'get', order])).invoice.file).toBeNull();
  const type = await pgw(['order', 'documents', order, '--type', 'receipt', '--file', files['invoice.pdf']!]);
  expect(type.code).toBe(2);
  expect(type.stderr).toMatch(/--type.*receipt.*invalid|Allowed choices are invoice, awb/);

  // exactly 2 MiB passes
  const edge = await json<Details>(t, ['order', 'documents', order, '--type', 'invoice', '--file', files['edge.pdf']!]);
  expect(edge.invoice.file).not.toBeNull();

  // --dry-run: the multipart request without the file's bytes; nothing sent
  const dry = await pgw(['order', 'documents', order, '--type', 'awb', '--file', files['awb.jpg']!, '--identifier', 'AWB-9', '--dry-run', '--json']);
  expect(dry.code, dry.stderr).toBe(0);
  const preview = JSON.parse(dry.stdout) as { method: string; url: string; headers: Record<string, string>; body: { multipart: unknown[] } };
  expect(preview.method).toBe('POST');
  expect(preview.url).toMatch(new RegExp(`/pg/orders/${order}/documents/$`));
  expect(preview.headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(preview.headers['X-Client-Secret']).toBe('[redacted]');
  expect(preview.body.multipart).toEqual([
    { name: 'identifier', value: 'AWB-9' },
    { name: 'document_type', value: 'awb' },
    { name: 'file', filename: 'awb.jpg', content_type: 'image/jpeg', bytes: JPEG.length },
  ]);
  expect(dry.stdout + dry.stderr).not.toContain('AWB-BYTES');
  expect((await json<Details>(t, ['order', 'get', order])).air_waybills).toEqual([]);
  // -v shows the same description, never the bytes
  const verbose = await pgw(['-v', 'order', 'documents', order, '--type', 'awb', '--file', files['awb.jpg']!, '--json']);
  expect(verbose.code, verbose.stderr).toBe(0);
  expect(verbose.stderr).toContain('"filename": "awb.jpg"');
  expect(verbose.stderr + verbose.stdout).not.toContain('AWB-BYTES');
  expect(verbose.stderr).not.toMatch(/\[redacted\][^\n]*\n[^\n]*sbx_cs_/);
}

describe('order documents on the embedded sandbox', () => {
  it('upload, read back at the served address (a serve of the same database), replace, expire; survives a restart and a snapshot', async () => {
    const t: Target = { name: 'embedded', configDir: join(dir, 'embedded'), args: [] };
    // The embedded sandbox addresses files where a serve of its database listens: start one first.
    const s = await startServe(t.configDir, '0');
    await walk(t, s.baseUrl);
    // a restart keeps them: a new serve on the same database serves the same bytes
    const order = await newOrder(t);
    await json(t, ['order', 'documents', order, '--type', 'invoice', '--file', files['invoice.pdf']!]);
    await s.stop();
    const s2 = await startServe(t.configDir, '0');
    const after = await json<Details>(t, ['order', 'get', order]);
    expect(after.invoice.file!.startsWith(s2.baseUrl)).toBe(true);
    expect((await get(after.invoice.file!)).body.equals(PDF)).toBe(true);
    // and a snapshot carries them: saved, reset away, restored
    await json(t, ['sandbox', 'snapshot', 'save', 'with-docs']);
    const preview = await pgwOn(t)(['sandbox', 'reset', '--all', '--dry-run', '-o', 'table']);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(/\b\d+ order documents?\b/);
    await json(t, ['sandbox', 'reset', '--yes']);
    expect((await pgwOn(t)(['order', 'get', order])).code).toBe(5);
    await json(t, ['sandbox', 'snapshot', 'restore', 'with-docs', '--yes']);
    const restored = await json<Details>(t, ['order', 'get', order]);
    expect((await get(restored.invoice.file!)).body.equals(PDF)).toBe(true);
    await s2.stop();
  }, 120_000);

  it('every refusal, and the checks before sending', async () => {
    await refusals({ name: 'embedded', configDir: join(dir, 'embedded-refusals'), args: [] });
  }, 120_000);
});

describe('order documents on pgw sandbox serve', () => {
  let s: ServeProcess;
  let t: Target;
  beforeAll(async () => {
    const configDir = join(dir, 'serve');
    s = await startServe(configDir, '0', ['--db', join(dir, 'serve.db')]);
    const account = s.accounts.find((a) => !a.psp)!;
    t = { name: 'serve', configDir, args: ['--base-url', s.baseUrl] };
    const add = await pgwInProcess(['profile', 'add', 'served', '--env', 'sandbox', '--base-url', s.baseUrl, '--client-id', account.client_id, '--client-secret-stdin'], {
      env: { PGW_CONFIG_DIR: configDir },
      input: `${account.client_secret}\n`,
    });
    expect(add.code, add.stderr).toBe(0);
    t.args = ['-p', 'served'];
  }, 60_000);

  it('upload, read back, replace, expire', async () => {
    await walk(t, s.baseUrl);
  }, 120_000);

  it('every refusal, and the checks before sending', async () => {
    await refusals(t);
  }, 120_000);

  it("a browser's FormData with CORS: the preflight allows it, the upload answers 200; no credentials 401 ERR_AUTH_000", async () => {
    const account = s.accounts.find((a) => !a.psp)!;
    const order = (await json<{ order_id: string }>(t, ['order', 'create', ...ORDER])).order_id;
    const url = `${s.baseUrl}/pg/orders/${order}/documents/`;
    const origin = 'http://localhost:5173';
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-client-id, x-client-secret, x-api-version' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/X-Client-ID.*X-Client-Secret.*X-API-Version/);

    const form = () => {
      const f = new FormData();
      f.append('identifier', order);
      f.append('document_type', 'INVOICE'); // the newest VERIFICATION_NEEDED page's case (vendor 11.1)
      f.append('file', new Blob([PDF], { type: 'application/pdf' }), 'invoice.pdf');
      return f;
    };
    const res = await fetch(url, {
      method: 'POST',
      headers: { origin, 'X-Client-ID': account.client_id, 'X-Client-Secret': account.client_secret, 'X-API-Version': '3.0.0' },
      body: form(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const body = (await res.json()) as { success: boolean; message: string; data: Details };
    expect(body).toMatchObject({ success: true, message: 'Documents uploaded successfully', data: { order_id: order, amount: '2500.00' } });
    expect((await get(body.data.invoice.file!)).body.equals(PDF)).toBe(true);

    const anonymous = await fetch(url, { method: 'POST', body: form() });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('ERR_AUTH_000');

    // the server checks what the CLI checks: a renamed file, a wrong type, a file over 2 MB, no identifier
    const send = async (parts: [string, string | Blob, string?][]) => {
      const f = new FormData();
      for (const [k, v, name] of parts) (typeof v === 'string' ? f.append(k, v) : f.append(k, v, name));
      const r = await fetch(url, { method: 'POST', headers: { 'X-Client-ID': account.client_id, 'X-Client-Secret': account.client_secret }, body: f });
      return { status: r.status, error: ((await r.json()) as { error: { code: string; details: Record<string, string> } }).error };
    };
    const renamed = await send([['identifier', 'x'], ['document_type', 'invoice'], ['file', new Blob([JPEG]), 'scan.pdf']]);
    expect(renamed).toMatchObject({ status: 400, error: { code: 'ERR_ORDER_002', details: { file: 'is named as a PDF but its content is a JPEG' } } });
    const wrongType = await send([['identifier', 'x'], ['document_type', 'receipt'], ['file', new Blob([PDF]), 'a.pdf']]);
    expect(wrongType).toMatchObject({ status: 400, error: { code: 'ERR_ORDER_002', details: { document_type: '"receipt" is not a valid choice.' } } });
    const big = await send([['identifier', 'x'], ['document_type', 'awb'], ['file', new Blob([Buffer.alloc(2 * 1024 * 1024 + 1, 0xff)]), 'a.jpg']]);
    expect(big.status).toBe(400);
    expect(big.error.details.file).toMatch(/must be at most 2 MB/);
    const noId = await send([['document_type', 'awb'], ['file', new Blob([JPEG]), 'a.jpg']]);
    expect(noId).toMatchObject({ status: 400, error: { code: 'ERR_ORDER_002', details: { identifier: 'This field is required.' } } });
  }, 60_000);
});
