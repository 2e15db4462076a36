// Issue 21 item 5 on the embedded sandbox, the commands run in-process: once an order is paid, its
// other payment links stop reading active (get, list) and cannot be extended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-links-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pgw = (...args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
async function value(...args: string[]): Promise<string> {
  const r = await pgw(...args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}

describe('the other links of a paid order (issue 21 item 5)', () => {
  it('read failed (closed, not paid), are listed so, and cannot be extended', async () => {
    const first = await value('link', 'create', '--amount', '100', '--reference-id', `sib-${process.pid}`, '--product-description', 'Plan', '--query', 'link_id');
    const order = await value('link', 'get', first, '--query', 'order_id');
    const second = await value('sandbox', 'link', 'create', '--order', order, '--query', 'link_id');
    const payment = await value('sandbox', 'pay', order, '--query', 'payment_id'); // through the newest active link
    expect(await value('link', 'get', second, '--query', 'status')).toBe('paid');

    expect(await value('link', 'get', first, '--query', 'status')).toBe('failed');
    const shown = await pgw('link', 'get', first, '-o', 'table');
    expect(shown.stdout).toContain(`paid by payment ${payment}`);
    expect(await value('link', 'list', '--all', '--query', `[?link_id=='${first}'].status | [0]`)).toBe('failed');

    const extended = await pgw('link', 'extend', first, '--expires-in', '1d');
    expect(extended.code).toBe(1);
    // vendor 6 / N10 (issue 20): only an active link can be extended, refused as deactivate
    // refuses it: 400 ERR_ORDER_002, details.payment naming the link's state.
    expect(extended.stderr).toMatch(/ERR_ORDER_002/);
    expect(extended.stderr).toContain(`${first} is failed`);
    expect(extended.stderr).toContain('only an active link can be extended');
    expect(await value('link', 'get', first, '--query', 'status')).toBe('failed');
  });
});
