// Issue 22 item 7 (the commands run in-process): `order create` from flags alone (currency INR and
// a generated reference_id, each said on stderr; a missing field named by its flag) and the `pgw
// sandbox serve` hint only on a terminal, once. The hint's third condition (no serve answers on its
// port) is checked in-process below against a serve on a free port: tests never take 4010.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { pgwInProcess } from '../helpers/in-process.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';
import { Context } from '../../src/context.js';
import { answersOn, pagesHint } from '../../src/commands/pages-hint.js';
import { startHarness, type Harness } from '../sandbox/harness.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-order-flags-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLAGS = [
  '--amount', '250', '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Plan', '--goods', 'service', '--invoice-number', 'INV-1',
];

describe('order create from flags alone', () => {
  it('sends currency INR and a generated reference_id, and says so on stderr', async () => {
    const r = await pgwInProcess(['order', 'create', ...FLAGS, '--dry-run', '--json'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout).body;
    expect(body.currency).toBe('INR');
    expect(body.reference_id).toMatch(/^[a-z0-9]{13}$/);
    expect(r.stderr).toContain('currency INR (the default)');
    expect(r.stderr).toContain(`reference_id ${body.reference_id} (generated)`);
    const created = await pgwInProcess(['order', 'create', ...FLAGS, '--json'], { env: { PGW_CONFIG_DIR: dir } });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).order_id).toMatch(/^OD\d+$/);
    // A pipe gets no hint about sandbox serve: it is for a person.
    expect(created.stderr).not.toContain('sandbox serve');
  }, 60_000);

  it('names a missing field by its flag, not its JSON path', async () => {
    const without = FLAGS.filter((_, i) => FLAGS[i] !== '--address-line1' && FLAGS[i - 1] !== '--address-line1');
    const r = await pgwInProcess(['order', 'create', ...without, '-o', 'table'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --address-line1: required');
    expect(r.stderr).not.toContain('buyer.address.line_1');
  }, 30_000);
});

describe.runIf(hasTmux)('the sandbox serve hint on a terminal', () => {
  it('is printed once after an embedded create, when nothing answers on its port', async () => {
    // Only meaningful when nothing else on this machine listens on 4010.
    if (await answersOn(4010)) return;
    const t = startPgw(['order', 'create', ...FLAGS, '--currency', 'INR', '--reference-id', 'tmux-hint-1'], { env: { PGW_CONFIG_DIR: dir } });
    try {
      expect(await t.exited()).toBe(0);
      const screen = t.screen({ joined: true });
      expect(screen).toMatch(/order_id\s+OD\d+/);
      expect(screen.match(/pgw sandbox serve` runs/g)).toHaveLength(1);
    } finally {
      t.close();
    }
  }, 60_000);
});

describe('the hint is left out when a serve answers on its port', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  class Tty extends PassThrough {
    isTTY = true;
    columns = 80;
    text = '';
    constructor() {
      super();
      this.on('data', (c: Buffer) => (this.text += c.toString()));
    }
  }

  it('answered: nothing; nothing there: the hint, once per run', async () => {
    const served = Number(new URL(h.sandbox.baseUrl).port);
    const free = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const make = () => {
      const stderr = new Tty();
      return { ctx: new Context({ stdin: new Tty(), stdout: new Tty(), stderr, env: {} }), stderr };
    };
    const a = make();
    const at = (port: number, serving = false) => ({ baseUrl: `http://127.0.0.1:${port}`, serving });
    await pagesHint(a.ctx, at(served));
    expect(a.stderr.text).toBe('');
    const b = make();
    await pagesHint(b.ctx, at(free));
    await pagesHint(b.ctx, at(free));
    expect(b.stderr.text.split(`hint: the pages open once \`pgw sandbox serve\` runs on this database (port ${free})`)).toHaveLength(2);
    // A serve of this database is known to run there (its record): nothing to say, nothing asked.
    const c = make();
    await pagesHint(c.ctx, at(free, true));
    expect(c.stderr.text).toBe('');
  });
});
