// pgw sandbox compare (issue 46) without the real gateway: the "gateway" is a second sandbox
// server (src/sandbox/serve.ts, as `pgw sandbox serve` runs it), reached through a small proxy
// that counts what it is sent and, on demand, alters answers in five known ways or answers as a
// web server. One server and one proxy for the file; the CLI runs in-process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startServer, type RunningSandbox } from '../../../src/sandbox/serve.js';
import { runCli } from '../../helpers/run.js';
import { callTool, mcpInProcess } from '../../helpers/mcp.js';

type Mode = 'pass' | 'alter' | 'html';

const dir = mkdtempSync(join(tmpdir(), 'pgw-compare-test-'));
const config = join(dir, 'config');
let serve: RunningSandbox;
let proxy: Server;
let proxyUrl = '';
let mode: Mode = 'pass';
const seen: string[] = [];
const ids: { payment?: string; subscription?: string } = {};

/** The five alterations: each changes one thing of one answer, and says where it will be reported. */
const ALTERATIONS: { step: string; where: string; kind: string; sandbox: string; gateway: string }[] = [
  { step: 'order.get', where: 'data.reference_id', kind: 'renamed', sandbox: 'reference_id', gateway: 'referenceId' },
  { step: 'order.status', where: 'message', kind: 'envelope', sandbox: 'present', gateway: 'missing' },
  { step: 'link.create', where: 'data.amount', kind: 'type', sandbox: 'string', gateway: 'number' },
  { step: 'bad.missing-field', where: 'status', kind: 'status', sandbox: '400', gateway: '422' },
  { step: 'bad.unknown-payment', where: 'error.code', kind: 'code', sandbox: 'ERR_PAYMENT_005', gateway: 'ERR_PAYMENT_404' },
];

function alter(method: string, path: string, status: number, body: any): { status: number; body: any } {
  if (method === 'GET' && /^\/pg\/orders\/OD\d+\/$/.test(path) && body?.data?.reference_id !== undefined) {
    const { reference_id, ...rest } = body.data;
    return { status, body: { ...body, data: { ...rest, referenceId: reference_id } } };
  }
  if (method === 'GET' && /^\/pg\/orders\/OD\d+\/status\/$/.test(path)) {
    const { message: _message, ...rest } = body;
    return { status, body: rest };
  }
  if (method === 'POST' && path === '/pg/payment-links/' && typeof body?.data?.amount === 'string') return { status, body: { ...body, data: { ...body.data, amount: Number(body.data.amount) } } };
  if (method === 'POST' && path === '/pg/orders/' && status === 400 && body?.error?.details?.buyer !== undefined) return { status: 422, body };
  if (method === 'GET' && path === '/pg/payments/PR0000000000/') return { status, body: { ...body, error: { ...body.error, code: 'ERR_PAYMENT_404' } } };
  return { status, body };
}

beforeAll(async () => {
  serve = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(dir, 'gateway.db') });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '/';
      seen.push(`${req.method} ${path}`);
      if (mode === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to our payment gateway</body></html>');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.startsWith('x-') || k === 'content-type')) as Record<string, string>;
      const raw = Buffer.concat(chunks);
      const answer = await request(`${serve.baseUrl}${path}`, { method: req.method as 'GET', headers, body: raw.length > 0 ? raw : undefined });
      const text = await answer.body.text();
      let status = answer.statusCode;
      let out = text;
      if (mode === 'alter') {
        const altered = alter(req.method ?? 'GET', path, status, JSON.parse(text));
        status = altered.status;
        out = JSON.stringify(altered.body);
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const merchant = serve.accounts.find((a) => !a.psp)!;
  const psp = serve.accounts.find((a) => a.psp)!;
  for (const [name, account, env] of [
    ['uat', merchant, 'sandbox'],
    ['uat-psp', psp, 'sandbox'],
    ['live', merchant, 'production'],
  ] as const) {
    const added = await pgw(['profile', 'add', name, '--env', env, '--base-url', proxyUrl, '--client-id', account.client_id, '--client-secret-stdin'], account.client_secret);
    expect(added.code, added.stderr).toBe(0);
  }
  // What --payment and --subscription name on the gateway: a captured payment, a subscription.
  const as = { 'x-client-id': merchant.client_id, 'x-client-secret': merchant.client_secret, 'content-type': 'application/json' };
  const seeded = (await (await request(`${serve.baseUrl}/sandbox/seed/`, { method: 'POST', headers: as, body: '{}' })).body.json()) as { data: { payments: string[] } };
  ids.payment = seeded.data.payments[2];
  const sub = (await (await request(`${serve.baseUrl}/sandbox/subscriptions/`, { method: 'POST', headers: as, body: '{"amount":"10.00"}' })).body.json()) as { data: { uid: string } };
  ids.subscription = sub.data.uid;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await serve?.close();
  rmSync(dir, { recursive: true, force: true });
});

function pgw(argv: string[], input?: string, env: Record<string, string> = {}) {
  return runCli(argv, { env: { PGW_CONFIG_DIR: config, NO_COLOR: '1', ...env }, input });
}

/** Runs pgw and returns what the gateway was sent meanwhile. */
async function sent(argv: string[], env: Record<string, string> = {}) {
  const before = seen.length;
  const r = await pgw(argv, undefined, env);
  return { ...r, requests: seen.slice(before) };
}

const differences = (report: any) =>
  report.steps.flatMap((s: any) => s.differences.map((d: any) => ({ step: s.step, where: d.where, kind: d.kind, sandbox: d.sandbox, gateway: d.gateway, ...(d.known ? { known: true } : {}) })));

describe('sandbox compare', () => {
  it('against a second sandbox serve: every step the same, the sandbox-only ones included; the recording is private', async () => {
    mode = 'pass';
    const record = join(dir, 'drift');
    const r = await sent(['sandbox', 'compare', '--against', 'uat', '--payment', ids.payment!.toLowerCase(), '--subscription', ids.subscription!, '--record', record, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(differences(report)).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.steps.filter((s: any) => s.outcome === 'skipped').map((s: any) => [s.step, s.reason])).toEqual([['merchant.list', "not a PSP's profile (--psp)"]]);
    expect(report.steps.find((s: any) => s.step === 'settle.mark')).toMatchObject({ outcome: 'same', gateway: { status: 200 } });
    // One request a step, stated: at most a few dozen.
    expect(r.requests).toHaveLength(report.requests.gateway);
    expect(report.requests.gateway).toBe(20);
    expect(r.requests.filter((q) => q.startsWith('POST /pg/refunds/') && q.endsWith('/simulate-status/'))).toHaveLength(1);

    for (const name of ['gateway.json', 'sandbox.json', 'report.json']) expect(statSync(join(record, name)).mode & 0o777).toBe(0o600);
    const gateway = JSON.parse(readFileSync(join(record, 'gateway.json'), 'utf8'));
    expect(gateway.exchanges).toHaveLength(20);
    expect(gateway.exchanges[1]).toMatchObject({ step: 'order.create', request: { method: 'POST' }, response: { status: 201, body: { success: true } } });
    const recorded = readFileSync(join(record, 'gateway.json'), 'utf8') + readFileSync(join(record, 'sandbox.json'), 'utf8');
    expect(recorded).not.toMatch(/x-client-secret|sbx_cs_|sbx_ek_/i);
    for (const a of serve.accounts) expect(recorded).not.toContain(a.client_secret);

    // A recording never replaces another: refused before anything is sent.
    const again = await sent(['sandbox', 'compare', '--against', 'uat', '--record', record]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already there');
    expect(again.requests).toEqual([]);
  });

  it('a gateway that alters five answers: each alteration reported once, at its step and place, and nothing else', async () => {
    mode = 'alter';
    const r = await sent(['sandbox', 'compare', '--against', 'uat', '--json']);
    mode = 'pass';
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.same).toBe(false);
    expect(differences(report)).toEqual(ALTERATIONS);
    expect(report.counts).toMatchObject({ differs: 5, differences: 5, known_differences: 0 });
    expect(r.stderr).toContain('--record <dir>');

    // The table a person reads: the same five, at 80 columns.
    mode = 'alter';
    const table = await runCli(['sandbox', 'compare', '--against', 'uat', '--only', 'order,link.create,bad'], { env: { PGW_CONFIG_DIR: config, NO_COLOR: '1' }, tty: true, columns: 80 });
    mode = 'pass';
    expect(table.code).toBe(1);
    for (const line of table.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(table.stdout).toMatch(/order\.get\s+│ data\.reference_id\s+│ reference_id\s+│ referenceId/);
    expect(table.stdout).toMatch(/bad\.unknown-payment\s+│ error\.code\s+│ ERR_PAYMENT_005\s+│ ERR_PAYMENT_404/);
  });

  it("a PSP's profile acting for a sub-merchant: the sub-merchant list joins, and -v logs every request with the secret redacted", async () => {
    const psp = serve.accounts.find((a) => a.psp)!;
    const subs = (await (await request(`${serve.baseUrl}/partners/merchants/`, { headers: { 'x-client-id': psp.client_id, 'x-client-secret': psp.client_secret } })).body.json()) as { data: { results: { id: string; kyc_status: string }[] } };
    const sub = subs.data.results.find((m) => m.kyc_status === 'APPROVED')!.id;
    const r = await sent(['sandbox', 'compare', '--against', 'uat-psp', '-m', sub, '--only', 'merchant,order.get,bad.unknown-order', '--json', '-v']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.steps.map((s: any) => [s.step, s.outcome])).toEqual([
      ['order.create', 'same'],
      ['order.get', 'same'],
      ['merchant.list', 'same'],
      ['bad.unknown-order', 'same'],
    ]);
    const logged = r.stderr.split('\n').filter((l) => /^gateway > (GET|POST) /.test(l));
    expect(logged).toHaveLength(r.requests.length);
    expect(r.stderr).toContain('gateway > X-Client-Secret: [redacted]');
    expect(r.stderr).toContain('sandbox > X-Client-Secret: [redacted]');
    expect(r.stderr).toContain(`gateway > X-Merchant-ID: ${sub}`);
    expect(r.stderr).not.toContain(psp.client_secret);
  });

  it('pgw mcp: sandbox_compare runs the read-only steps on a test profile and returns the report; production has no such tool', async () => {
    const session = await mcpInProcess(['-p', 'uat', 'mcp', '--toolsets', 'sandbox'], { env: { PGW_CONFIG_DIR: config } });
    try {
      const before = seen.length;
      const r = await callTool(session.client, 'sandbox_compare', { only: ['payment.search', 'bad', 'order.get'] });
      expect(r.isError, r.text).toBe(false);
      const report = r.data as any;
      expect(report.same).toBe(true);
      expect(report.steps.map((s: any) => s.step)).toEqual(['payment.search', 'bad.unknown-payment', 'bad.unknown-order', 'bad.api-version']);
      expect(seen.slice(before).every((q) => q.startsWith('GET '))).toBe(true);
    } finally {
      await session.close();
    }
    const live = await mcpInProcess(['-p', 'live', 'mcp', '--allow-production', '--toolsets', 'all'], { env: { PGW_CONFIG_DIR: config } });
    try {
      expect((await live.client.listTools()).tools.map((t) => t.name)).not.toContain('sandbox_compare');
    } finally {
      await live.close();
    }
  });

  it('refuses before sending anything: a production profile (exit 6), unknown steps and bad IDs (exit 2); --steps and --dry-run send nothing', async () => {
    const live = await sent(['sandbox', 'compare', '--against', 'live']);
    expect(live.code).toBe(6);
    expect(live.stderr).toContain('refused on production profile');
    for (const [argv, message] of [
      [['--only', 'order.nothing'], 'unknown step'],
      [['--payment', 'OD123'], 'is not a payment ID'],
      [['--record', join(dir, 'no', 'such', 'dir')], 'its parent directory does not exist'],
      [[], ''],
    ] as const) {
      const r = await sent(['sandbox', 'compare', ...(argv.length > 0 ? ['--against', 'uat'] : []), ...argv]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message || '--against <profile>');
      expect(r.requests).toEqual([]);
    }
    const steps = await sent(['sandbox', 'compare', '--steps', '--json']);
    expect(JSON.parse(steps.stdout).map((s: any) => s.step)).toContain('bad.api-version');
    const dry = await sent(['sandbox', 'compare', '--against', 'uat', '--only', 'order.get', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout).map((q: any) => `${q.step} ${q.method} ${q.url.replace(proxyUrl, '')}`)).toEqual(['order.create POST /pg/orders/', 'order.get GET /pg/orders/<order_id>/']);
    expect(JSON.parse(dry.stdout)[0].headers['X-Client-Secret']).toBe('[redacted]');
    expect(steps.requests.concat(dry.requests, live.requests)).toEqual([]);
  });

  it('a gateway that is down is exit 3, one that answers a web page exit 1: a clear line, never a crash', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await pgw(['sandbox', 'compare', '--against', 'uat', '--base-url', `http://127.0.0.1:${port}`]);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/could not connect to 127\.0\.0\.1:\d+: connection refused/);
    expect(down.stderr).not.toMatch(/\n\s+at /);

    mode = 'html';
    const page = await sent(['sandbox', 'compare', '--against', 'uat']);
    mode = 'pass';
    expect(page.code).toBe(1);
    expect(page.stderr).toContain('answered 200 with text/html, not JSON: nothing to compare');
    expect(page.stderr).not.toMatch(/\n\s+at /);
    // Nothing was created: the first step is a read, and the run ends there.
    expect(page.requests).toEqual(['GET /pg/payments/?page=1&page_size=5']);
  });
});
