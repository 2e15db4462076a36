// The sandbox's answers made to match the vendor's schemas (docs/sandbox.md "Optional keys and
// required fields"), through the command line (in-process) and pgw's own views: a link without a
// description, order details without null keys, the unknown sub-merchant's details object, and the
// seeded sub-merchant's contact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-vendor-parity-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pgw = (args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
async function json(args: string[]): Promise<any> {
  const r = await pgw([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('pgw against its embedded sandbox', () => {
  it('link create with --amount alone makes a link (no description needed)', async () => {
    const link = await json(['link', 'create', '--amount', '15']);
    expect(link.link_id).toMatch(/^PR[0-9]{10}$/);
    expect(link.product).not.toHaveProperty('description');
  });

  it("order get of an order without a method, then a failed try: no null keys, and the view reads '-'", async () => {
    const template = await pgw(['order', 'create', '--print-template']);
    const file = join(dir, 'order.json');
    writeFileSync(file, template.stdout);
    const { order_id: orderId } = await json(['order', 'create', '--file', file]);
    expect(await json(['order', 'get', orderId])).not.toHaveProperty('opted_mop_type');
    await json(['sandbox', 'pay', orderId, '--fail']);
    const details = await json(['order', 'get', orderId]);
    expect(details.payments).toHaveLength(1);
    expect(details.payments[0]).not.toHaveProperty('settlement');
    const view = await pgw(['order', 'get', orderId, '-o', 'table']);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/│ failed │ +1500\.00 │ INR +│ upi +│ - +│/);
  });

  it('merchant get of an unknown sub-merchant: exit 5, the details line names merchant_id', async () => {
    const r = await pgw(['-p', 'local-psp', 'merchant', 'get', '1000000009', '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('error: Validation error (ERR_MERCHANT_001)');
    expect(r.stderr).toContain('  merchant_id: 1000000009 not found');
    expect(r.stdout).toBe('');
  });

  it('merchant get of a seeded sub-merchant shows its email and phone', async () => {
    const [first] = await json(['-p', 'local-psp', 'merchant', 'list']);
    const r = await pgw(['-p', 'local-psp', 'merchant', 'get', first.id, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/email +\S+@\S+/);
    expect(r.stdout).toMatch(/phone +\+[0-9]{8,15}/);
  });
});
