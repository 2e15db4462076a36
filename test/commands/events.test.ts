// pgw events list|get|resend, pgw sandbox clock, pgw webhook verify, listen --print-key and the
// Encryption Key in profiles (issue 19), on the embedded default (in-process, real HTTP).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';

let config: { dir: string; cleanup: () => void };
let server: Server | undefined;
let files: string;
beforeEach(() => {
  config = tempConfigDir();
  files = mkdtempSync(join(tmpdir(), 'pgw-verify-'));
});
afterEach(async () => {
  config.cleanup();
  rmSync(files, { recursive: true, force: true });
  if (server) await new Promise((r) => (server!.closeAllConnections(), server!.close(r)));
  server = undefined;
});

const pgw = (argv: string[], opts: { input?: string; env?: Record<string, string>; tty?: boolean } = {}) =>
  runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1', ...opts.env }, input: opts.input, tty: opts.tty });
async function json<T = any>(argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

async function receiver(status: { now: number }): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push(body);
      res.writeHead(status.now).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`, hits };
}

describe('pgw sandbox clock', () => {
  it('shows, advances, sets and resets the sandbox time; bad input is exit 2', async () => {
    const shown = await json(['sandbox', 'clock']);
    expect(shown).toMatchObject({ offset_seconds: 0, now: expect.any(String), machine_now: expect.any(String) });
    expect((await json(['sandbox', 'clock', 'advance', '90s'])).offset_seconds).toBe(90);
    expect((await json(['sandbox', 'clock', 'advance', '7d'])).offset_seconds).toBe(90 + 7 * 86_400);
    const set = await json(['sandbox', 'clock', 'set', '2030-06-01T00:00:00Z']);
    expect(set.now.startsWith('2030-06-01T00:00')).toBe(true);
    const human = await pgw(['sandbox', 'clock'], { tty: true });
    expect(human.stdout).toMatch(/^offset +\+[0-9]+d [0-9:]{8} \(sandbox ahead of the machine\)$/m);
    // A relative expiry counts from the sandbox's time, not the machine's (30 days ahead here).
    await json(['sandbox', 'clock', 'reset']);
    await json(['sandbox', 'clock', 'advance', '30d']);
    const link = await json(['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '1d']);
    const days = (Date.parse(link.expiry_date ?? link.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(30.5);
    expect(days).toBeLessThan(31.5);
    expect((await json(['sandbox', 'clock', 'reset'])).offset_seconds).toBe(0);
    for (const bad of [['advance', '5x'], ['advance', '0s'], ['set', '2030-02-30T00:00:00Z'], ['set', 'tomorrow']]) {
      const r = await pgw(['sandbox', 'clock', ...bad, '-o', 'table']);
      expect(r.code, bad.join(' ')).toBe(2);
    }
  });
});

describe('pgw events', () => {
  it('list, the five attempts via clock advance, get, resend to an address that now answers 200', async () => {
    const status = { now: 500 };
    const app = await receiver(status);
    expect((await pgw(['sandbox', 'webhook', 'add', app.url])).code).toBe(0);
    const made = await json(['trigger', 'PAYMENT_SUCCESSFUL']);
    const id = made.events[0].id as string;
    expect(made.events[0].targets).toEqual([app.url]);

    const listed = await json<any[]>(['events', 'list']);
    const entry = listed.find((e) => e.id === id);
    expect(entry).toMatchObject({ id, event_type: 'PAYMENT_SUCCESSFUL', attempts: expect.any(Number), status: expect.any(String) });
    expect(entry).toHaveProperty('last_status');
    expect(entry).toHaveProperty('next_attempt_at');

    const advanced = await pgw(['sandbox', 'clock', 'advance', '1h', '-o', 'table']);
    // issue 42 item 5: the move says what it did, the failed event by its ID, and what to run next.
    expect(advanced.stdout).toMatch(/webhook attempts +4 \(0 delivered, 4 failed\)/);
    expect(advanced.stdout).toContain(id);
    expect(advanced.stderr).toContain('next: pgw events list --status failed');
    expect(app.hits).toHaveLength(5);
    const failed = await json<any[]>(['events', 'list', '--status', 'failed', '--type', 'payment_successful']);
    expect(failed.map((e) => e.id)).toContain(id);
    expect(failed.find((e) => e.id === id)).toMatchObject({ attempts: 5, last_status: 500, next_attempt_at: null });

    const detail = await json(['events', 'get', id]);
    expect(detail.deliveries[0].attempts.map((a: any) => a.status)).toEqual([500, 500, 500, 500, 500]);
    expect(detail.body).toBe(app.hits[0]);
    const table = await pgw(['events', 'get', id], { tty: true });
    expect(table.stdout).toContain(`${app.url} (address, failed)`);
    expect(table.stdout).toMatch(/#5 .* HTTP 500/);

    status.now = 200;
    const resent = await pgw(['events', 'resend', id, '-o', 'table']);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stderr).toContain(`resent to ${app.url}: HTTP 200 (delivered)`);
    expect(app.hits).toHaveLength(6);
    expect((await json(['events', 'get', id])).status).toBe('delivered');

    const to = await json(['events', 'resend', id, '--to', app.url]);
    expect(to.attempts).toBe(7);
    const about = await json<any[]>(['events', 'list', '--about', made.payment_id]);
    expect(about.map((e) => e.id)).toEqual([id]);
  });

  it('bad input and unknown events', async () => {
    expect((await pgw(['events', 'get', 'EV00000000000000', '-o', 'table'])).code).toBe(5);
    expect((await pgw(['events', 'list', '--limit', '0', '-o', 'table'])).code).toBe(2);
    expect((await pgw(['events', 'list', '--type', 'PAYMENT_CAPTURED', '-o', 'table'])).stderr).toMatch(/PAYMENT_SUCCESSFUL/);
    const made = await json(['trigger', 'PAYMENT_FAILED']);
    // Nothing registered: a resend has nowhere to go and says so.
    const r = await pgw(['events', 'resend', made.events[0].id, '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no webhook address is registered/);
  });
});

describe('the Encryption Key', () => {
  it('listen --print-key prints it alone; webhook verify checks a saved body with it (exit 0 or 1 with the reason)', async () => {
    const status = { now: 200 };
    const app = await receiver(status);
    await pgw(['sandbox', 'webhook', 'add', app.url]);
    const key = (await pgw(['listen', '--print-key'])).stdout.trim();
    expect(key).toMatch(/^sbx_ek_[0-9a-f]{48}$/);
    const made = await json(['trigger', 'PAYMENT_SUCCESSFUL']);
    const body = (await json(['events', 'get', made.events[0].id])).body as string;
    const file = join(files, 'body.json');
    writeFileSync(file, body);
    const sig = createHmac('sha256', key).update(body).digest('hex');

    // The key from the sandbox (embedded profile), then from stdin.
    const ok = await pgw(['webhook', 'verify', '--file', file, '--signature', sig, '-o', 'table']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('valid: X-Webhook-Signature matches');
    expect(ok.stdout + ok.stderr).not.toContain(key);
    expect((await pgw(['webhook', 'verify', '--file', file, '--signature', sig, '--key-stdin', '--json'], { input: `${key}\n` })).code).toBe(0);

    const wrongKey = await pgw(['webhook', 'verify', '--file', file, '--signature', sig, '--key-stdin', '-o', 'table'], { input: 'sbx_ek_other' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/signature does not match: .*a different key, or a body changed after signing/);

    writeFileSync(file, body.replace('"PAYMENT_SUCCESSFUL"', '"PAYMENT_FAILED"'));
    expect((await pgw(['webhook', 'verify', '--file', file, '--signature', sig, '-o', 'table'])).code).toBe(1);

    // A body a framework re-indented: only the documented fallback (sorted keys, compact) matches.
    writeFileSync(file, JSON.stringify(JSON.parse(body), null, 2));
    const fallback = await json(['webhook', 'verify', '--file', file, '--signature', sig]);
    expect(fallback).toEqual({ valid: true, header: 'X-Webhook-Signature', matched: 'sorted keys' });

    // The V2 header form: t=<unix time>,v2=HMAC(key, t + "." + body).
    writeFileSync(file, body);
    const t = '1893456000';
    const v2 = `t=${t},v2=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
    expect(await json(['webhook', 'verify', '--file', file, '--signature', v2])).toEqual({ valid: true, header: 'X-Webhook-Signature-V2', matched: 'raw body', timestamp: Number(t) });
    expect((await pgw(['webhook', 'verify', '--file', file, '--signature', v2.replace('t=1893456000', 't=1893456001'), '-o', 'table'])).code).toBe(1);

    for (const [args, message] of [
      [['--signature', 'abc'], /expected 64 hex characters/],
      [['--signature', sig, '--file', join(files, 'missing.json')], /--file: cannot read/],
      [['--signature', 't=1,v2=zz'], /X-Webhook-Signature-V2 value has the form/],
    ] as const) {
      const r = await pgw(['webhook', 'verify', '--file', file, ...args, '-o', 'table']);
      expect(r.code, String(args)).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('profile add --encryption-key-stdin keeps it masked; it never reaches -v output', async () => {
    const KEY = 'ek_live_0123456789abcdefWXYZ';
    const add = await pgw(['profile', 'add', 'shop', '--base-url', 'http://127.0.0.1:9', '--client-id', 'cid_1', '--client-secret-stdin', '--encryption-key-stdin', '--json'], {
      input: `sk_test_000011112222\n${KEY}\n`,
    });
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout).encryption_key).toBe('••••WXYZ');
    const shown = await pgw(['profile', 'show', 'shop'], { tty: true });
    expect(shown.stdout).toMatch(/Encryption key +••••WXYZ/);
    expect(shown.stdout + shown.stderr).not.toContain(KEY);
    // --print-key prints it because it was asked for; nothing else ever does.
    expect((await pgw(['-p', 'shop', 'listen', '--print-key'])).stdout).toBe(`${KEY}\n`);
    const one = await pgw(['profile', 'add', 'x', '--client-id', 'c', '--client-secret-stdin', '--encryption-key-stdin', '-o', 'table'], { input: 'only-one-line\n' });
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/stdin must hold 2 lines, the client secret then the Encryption Key/);

    // The registration answer shows the sandbox account's key; -v never logs it.
    const verbose = await pgw(['-v', 'sandbox', 'webhook', 'add', 'http://127.0.0.1:9/h', '-o', 'table']);
    const sandboxKey = (await pgw(['listen', '--print-key'])).stdout.trim();
    expect(verbose.stdout).toContain(sandboxKey);
    expect(verbose.stderr).toContain('"encryption_key": "[redacted]"');
    expect(verbose.stderr).not.toContain(sandboxKey);
  });
});
