// Issue 33 item 11 (the commands run in-process, serve as a process): the buyer pages (checkout,
// UPI simulator, payment links) and the hints name the address of the sandbox in use. A `sandbox
// serve` on another port than 4010 (a fixed one, and --port 0) builds its URLs on the port it got;
// the embedded profile, whose sandbox listens on no port, addresses them where a serve of its
// database runs (its record beside the database), and on serve's default port once that serve has
// stopped.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgwInProcess } from '../helpers/in-process.js';
import { killServes, startServe } from '../helpers/serve-process.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-pages-address-'));
});
afterAll(() => {
  killServes();
  rmSync(dir, { recursive: true, force: true });
});

const FLAGS = [
  '--amount', '250', '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Plan', '--goods', 'service', '--invoice-number', 'INV1',
];
const UPI_INTENT = ['--mode', 's2s', '--mop', 'upi', '--upi-flow', 'intent'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const serve = startServe;

const pgw = (configDir: string, args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: configDir } });

describe('page addresses follow the sandbox in use', () => {
  it('serve --port 0: its own URLs, and the embedded profile of its database, use the port it got', async () => {
    const configDir = join(dir, 'port0');
    const s = await serve(configDir, '0');
    try {
      const port = new URL(s.baseUrl).port;
      expect(port).not.toBe('0');
      expect(port).not.toBe('4010');
      // The record beside the database names where it listens, nothing secret.
      const record = JSON.parse(readFileSync(join(configDir, 'sandbox.db.serve.json'), 'utf8'));
      expect(record).toEqual({ base_url: s.baseUrl, pid: expect.any(Number) });

      // Embedded profile: hosted checkout, UPI simulator, a payment link: all on the serve's port.
      const hosted = await pgw(configDir, ['order', 'create', ...FLAGS, '--json']);
      expect(hosted.code, hosted.stderr).toBe(0);
      const checkout = JSON.parse(hosted.stdout).checkout_url as string;
      expect(checkout.startsWith(`${s.baseUrl}/checkout/`)).toBe(true);
      // The page opens there: this serve runs on the same database.
      const page = await fetch(checkout);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(JSON.parse(hosted.stdout).order_id);

      const intent = await pgw(configDir, ['order', 'create', ...FLAGS, ...UPI_INTENT, '--json']);
      expect(intent.code, intent.stderr).toBe(0);
      expect(JSON.parse(intent.stdout).test_simulator_url.startsWith(`${s.baseUrl}/checkout/`)).toBe(true);

      const link = await pgw(configDir, ['sandbox', 'link', 'create', '--order', JSON.parse(hosted.stdout).order_id, '--json']);
      expect(link.code, link.stderr).toBe(0);
      expect(JSON.parse(link.stdout).payment_link.startsWith(`${s.baseUrl}/p/`)).toBe(true);

      // Through the serve itself (a base URL): it builds them on the port it got.
      const viaServe = await pgw(configDir, ['--base-url', s.baseUrl, 'order', 'create', ...FLAGS, ...UPI_INTENT, '--json']);
      expect(viaServe.code, viaServe.stderr).toBe(0);
      expect(JSON.parse(viaServe.stdout).test_simulator_url.startsWith(`${s.baseUrl}/checkout/`)).toBe(true);

      // The hints that name a serve: wait and env point at it too.
      const wait = await pgw(configDir, ['sandbox', 'wait', '--json', '--timeout', '10s']);
      expect(wait.code, wait.stderr).toBe(0);
      expect(JSON.parse(wait.stdout).base_url).toBe(s.baseUrl);
      const env = await pgw(configDir, ['sandbox', 'env']);
      expect(env.code, env.stderr).toBe(0);
      expect(env.stdout).toContain(`export PGW_BASE_URL='${s.baseUrl}'`);
    } finally {
      await s.stop();
    }
    // Stopped: the record is gone, and pages are addressed where `pgw sandbox serve` would listen.
    expect(existsSync(join(configDir, 'sandbox.db.serve.json'))).toBe(false);
    const after = await pgw(configDir, ['order', 'create', ...FLAGS, '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout).checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\//);
  }, 90_000);

  it('serve --port N (not 4010): the serve answers its pages on N, and a base-URL profile prints N', async () => {
    const configDir = join(dir, 'fixed');
    const port = await freePort();
    const s = await serve(configDir, String(port));
    try {
      expect(s.baseUrl).toBe(`http://127.0.0.1:${port}`);
      const viaServe = await pgw(configDir, ['--base-url', s.baseUrl, 'order', 'create', ...FLAGS, '--json']);
      expect(viaServe.code, viaServe.stderr).toBe(0);
      expect(JSON.parse(viaServe.stdout).checkout_url.startsWith(`http://127.0.0.1:${port}/checkout/`)).toBe(true);
      const embedded = await pgw(configDir, ['order', 'create', ...FLAGS, '--json']);
      expect(JSON.parse(embedded.stdout).checkout_url.startsWith(`http://127.0.0.1:${port}/checkout/`)).toBe(true);
    } finally {
      await s.stop();
    }
  }, 60_000);

  it('a record left by a serve that is gone (killed) is ignored', async () => {
    const configDir = join(dir, 'killed');
    const s = await serve(configDir, '0');
    const child = s.child;
    const gone = new Promise((r) => child.on('close', r));
    child.kill('SIGKILL');
    await gone;
    expect(existsSync(join(configDir, 'sandbox.db.serve.json'))).toBe(true);
    const r = await pgw(configDir, ['order', 'create', ...FLAGS, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).checkout_url).not.toContain(s.baseUrl);
    expect(JSON.parse(r.stdout).checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\//);
  }, 60_000);
});

describe.runIf(hasTmux)('on a terminal, at 80 columns', () => {
  it('the checkout row names the running serve, and no hint to start one is printed', async () => {
    const configDir = join(dir, 'tmux');
    const s = await serve(configDir, '0');
    const t = startPgw(['order', 'create', ...FLAGS, '--currency', 'INR', '--reference-id', 'tmux-pages-1'], { env: { PGW_CONFIG_DIR: configDir } });
    try {
      expect(await t.exited()).toBe(0);
      const screen = t.screen({ joined: true });
      expect(screen).toContain(`checkout    ${s.baseUrl}/checkout/`);
      expect(screen).not.toContain('hint:');
      expect(screen).not.toContain(':4010');
    } finally {
      t.close();
      await s.stop();
    }
  }, 60_000);
});
