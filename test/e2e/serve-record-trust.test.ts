// Issue 44 item 8 through the built binary: a serve record (`<db>.serve.json`) is used only when it
// names a loopback address and a process whose command line is a pgw sandbox serve. A planted one
// (another host with a live serve's id, a loopback address with some other live process's id) is
// ignored with one warning: `pgw sandbox env` prints serve's default address, checkout pages are
// not addressed there, and nothing of the planted address reaches stdout. One real serve for the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnPgw } from '../helpers/spawn.js';
import { killServes, startServe, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
let serve: ServeProcess;
let other: ChildProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-serve-record-'));
  serve = await startServe(join(dir, 'serving'), '0');
  // A live process that is not pgw: its id is what a planted record names.
  other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
}, 60_000);
afterAll(async () => {
  other.kill('SIGKILL');
  await serve.stop();
  killServes();
  rmSync(dir, { recursive: true, force: true });
});

const FLAGS = [
  '--amount', '250', '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Plan', '--goods', 'service', '--invoice-number', 'INV1', '--json',
];

describe('a planted serve record', () => {
  it.each([
    ['another host, naming a live pgw serve', () => ({ base_url: 'http://evil.example:4010', pid: serve.child.pid }), /it names http:\/\/evil\.example:4010, which is not this machine's loopback address/],
    ['a loopback address, naming a live process that is not pgw', () => ({ base_url: 'http://127.0.0.1:4999', pid: other.pid }), /process \d+ is not pgw sandbox serve/],
  ])('%s: ignored with one warning, sandbox env and the checkout page use the default address', async (name, record, why) => {
    const configDir = join(dir, name.replace(/\W+/g, '-'));
    const seed = await spawnPgw(['sandbox', 'seed', '--json'], { env: { PGW_CONFIG_DIR: configDir } });
    expect(seed.code, seed.stderr).toBe(0);
    const planted = record();
    writeFileSync(join(configDir, 'sandbox.db.serve.json'), JSON.stringify(planted));

    const env = await spawnPgw(['sandbox', 'env'], { env: { PGW_CONFIG_DIR: configDir } });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain("export PGW_BASE_URL='http://127.0.0.1:4010'");
    expect(env.stdout).not.toContain(planted.base_url);
    const warnings = env.stderr.trimEnd().split('\n');
    expect(warnings).toEqual([expect.stringMatching(/^warning: .*sandbox\.db\.serve\.json ignored: /)]);
    expect(warnings[0]).toMatch(why);

    const order = await spawnPgw(['order', 'create', ...FLAGS], { env: { PGW_CONFIG_DIR: configDir } });
    expect(order.code, order.stderr).toBe(0);
    expect(JSON.parse(order.stdout).checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\//);
    expect(order.stderr).toMatch(why);
  }, 60_000);

  it("the serve's own record is still trusted: sandbox env names the port it got, without a warning", async () => {
    const env = await spawnPgw(['sandbox', 'env'], { env: { PGW_CONFIG_DIR: join(dir, 'serving') } });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain(`export PGW_BASE_URL='${serve.baseUrl}'`);
    expect(env.stderr).toBe('');
  }, 30_000);
});

describe('what counts as a pgw serve', () => {
  it('pgw by its bin script, a link named pgw or the single executable, running sandbox serve', async () => {
    const { isPgwServe } = await import('../../src/sandbox/process-command-line.js');
    expect(isPgwServe(['node', '/usr/lib/node_modules/pgw-cli/bin/pgw.js', 'sandbox', 'serve', '--port', '0'])).toBe(true);
    expect(isPgwServe(['/usr/bin/node', '/usr/local/bin/pgw', '-p', 'local', 'sandbox', 'serve'])).toBe(true);
    expect(isPgwServe(['/opt/pgw/build/sea/pgw', 'sandbox', 'serve'])).toBe(true);
    expect(isPgwServe(['node', '/usr/local/bin/pgw', 'sandbox', 'seed'])).toBe(false);
    expect(isPgwServe(['node', 'evil.js', 'sandbox', 'serve'])).toBe(false);
    expect(isPgwServe(['python3', '-m', 'http.server', 'pgw', 'sandbox'])).toBe(false);
  });
});
