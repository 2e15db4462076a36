// Issue 22 item 4 and issue 33 item 14 through the built binary in an 80-column terminal (tmux): a
// table keeps what identifies a row. A reference or a URL is never cut (less important columns are
// dropped, and stderr says which, and that --wide shows them), a masked account keeps its last four
// digits, and an error in a bulk results table is never cut (it wraps).
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
  it('link list: the reference stays whole; the columns dropped for it are named, --wide shows them', async () => {
    const template = JSON.parse((await spawnPgw(['link', 'create', '--print-template'], { env })).stdout);
    delete template.expiry_date;
    template.reference_id = 'INV-7781-demo-order-2026-11-r3v-1-2';
    template.buyer.name = 'Kaveri Silks And Sarees Private Limited';
    const file = join(dir, 'link.json');
    writeFileSync(file, JSON.stringify(template));
    const created = await spawnPgw(['link', 'create', '--file', file, '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const screen = await screenOf(['link', 'list']);
    expect(screen).toContain('│ INV-7781-demo-order-2026-11-r3v-1-2 │');
    // What did not fit is dropped whole and named, after the table.
    // (The note folds at spaces like any note: read across its lines.)
    const note = /note: (\d) columns? hidden \(([^)]*)\): --wide shows (them|it)/.exec(screen.replace(/\n +/g, ' '));
    expect(note, screen).not.toBeNull();
    const hidden = note![2]!.split(', ');
    expect(hidden).toHaveLength(Number(note![1]));
    const header = screen.split('\n').find((l) => l.includes('link_id'))!;
    for (const name of hidden) expect(header).not.toContain(name);
    expect(screen.indexOf('note: ')).toBeGreaterThan(screen.lastIndexOf('└'));

    // --wide: every column, at its natural width (the terminal then wraps the lines).
    const t = startPgw(['link', 'list', '--wide'], { env, columns: 80 });
    try {
      expect(await t.exited()).toBe(0);
      const wide = t.screen({ joined: true });
      const head = wide.split('\n').find((l) => l.includes('link_id'))!;
      for (const name of ['link_id', 'status', 'amount', 'reference', 'buyer', 'created']) expect(head).toContain(name);
      expect(wide).toContain('Kaveri Silks And Sarees Private Limited');
      expect(wide).not.toContain('hidden');
    } finally {
      t.close();
    }
  }, 60_000);

  it('sandbox webhook list: a long URL stays whole, the table still within 80 columns', async () => {
    const url = 'http://127.0.0.1:4210/hooks/payment-gateway/receiver';
    const added = await spawnPgw(['sandbox', 'webhook', 'add', url], { env });
    expect(added.code, added.stderr).toBe(0);
    const screen = await screenOf(['sandbox', 'webhook', 'list']);
    expect(screen).toContain(` ${url} `);
    expect(screen.replace(/\n +/g, ' ')).toMatch(/note: \d columns? hidden \(.*created.*\): --wide shows/);
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
