// Issue 22 item 4 through the built binary in an 80-column terminal (tmux): a table keeps what
// identifies a row. A reference is cut in the middle (both ends identify it), a masked account
// keeps its last four digits, and an error in a bulk results table is never cut (it wraps).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';
import { shorten } from '../../src/output/fit.js';

let dir: string;
const env: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-tables-'));
  env.PGW_CONFIG_DIR = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function screenOf(args: string[]): Promise<string> {
  const t = startPgw(args, { env, columns: 80 });
  try {
    expect(await t.exited()).toBe(0);
    const screen = t.screen();
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    return screen;
  } finally {
    t.close();
  }
}

describe('cuts', () => {
  it('middle, start and wrap', () => {
    expect(shorten('demo-merchant-order-r3v-1', 12, 'middle')).toBe('demo-m…r3v-1');
    expect(shorten('••••••••6789', 6, 'start')).toBe('…•6789');
    expect(shorten('must be a decimal string', 10, 'wrap')).toBe('must be a\ndecimal\nstring');
  });
});

describe.runIf(hasTmux)('tables at 80 columns', () => {
  it('link list: the reference is cut in the middle, keeping both ends', async () => {
    const template = JSON.parse((await spawnPgw(['link', 'create', '--print-template'], { env })).stdout);
    delete template.expiry_date;
    template.reference_id = 'demo-merchant-order-2026-11-r3v-1';
    template.buyer.name = 'Asha Verma With A Rather Long Name';
    const file = join(dir, 'link.json');
    writeFileSync(file, JSON.stringify(template));
    const created = await spawnPgw(['link', 'create', '--file', file, '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const screen = await screenOf(['link', 'list']);
    expect(screen).toMatch(/│ demo-[^│ ]*…[^│ ]*3v-1 +│/);
  }, 60_000);

  it('merchant get of several: the masked account keeps its last four digits', async () => {
    const ids = JSON.parse((await spawnPgw(['-p', 'local-psp', 'merchant', 'list', '--query', '[].id'], { env })).stdout) as string[];
    expect(ids.length).toBeGreaterThan(1);
    const accounts = JSON.parse((await spawnPgw(['-p', 'local-psp', 'merchant', 'get', ...ids, '--query', '[].settlement_details.bank_account_number'], { env })).stdout) as string[];
    const screen = await screenOf(['-p', 'local-psp', 'merchant', 'get', ...ids]);
    for (const account of accounts) expect(screen).toContain(`••••${account.slice(-4)}`);
  }, 60_000);

  it('bulk results: an error cell is never cut; it wraps inside its cell', async () => {
    const template = JSON.parse((await spawnPgw(['merchant', 'create', '--print-template'], { env })).stdout);
    const good = structuredClone(template);
    good.company_details.brand_name = 'Good Wide Brand Name Here';
    const bad = structuredClone(template);
    bad.company_details.brand_name = 'Broken Brand With A Long Name';
    bad.company_details.monthly_avg_transaction_value = 'lots';
    const file = join(dir, 'batch.json');
    writeFileSync(file, JSON.stringify([good, bad]));
    const t = startPgw(['-p', 'local-psp', 'merchant', 'create', '--file', file, '--skip-invalid'], { env, columns: 80 });
    try {
      expect(await t.exited()).toBe(2);
      const screen = t.screen();
      expect(screen).not.toMatch(/…/);
      // The error's words, read down its cell, are the whole message.
      const cells = screen.split('\n').filter((l) => l.startsWith('│')).map((l) => l.split('│').at(-2)!.trim());
      expect(cells.join(' ')).toContain('must be a decimal string');
    } finally {
      t.close();
    }
  }, 60_000);
});
