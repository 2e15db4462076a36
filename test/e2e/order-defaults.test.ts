// Issue 33 item 12 through the built binary in a real 80-column terminal (tmux; the check after it
// in-process): on the embedded sandbox profile of a fresh config dir, `pgw order create` with no
// flags is Enter at every question, then Enter at the review, and an order is created with the demo
// buyer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, startPgw } from '../helpers/tmux.js';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-order-defaults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUESTIONS = [
  'How will the buyer pay?',
  'Amount in rupees',
  'Currency',
  'Your reference for the order',
  'Return address after payment',
  'Buyer name',
  'Buyer email',
  'Buyer phone',
  'Address line 1',
  'City',
  'State',
  'Postal code',
  'Product name',
  'Type of goods',
  'Invoice number',
  'Send this order?',
];

describe.runIf(hasTmux)('Enter through order create at 80 columns', () => {
  it('creates an order from the defaults alone', async () => {
    const t = startPgw(['order', 'create'], { env: { PGW_CONFIG_DIR: dir }, columns: 80, rows: 60 });
    try {
      const seen: Record<string, string> = {};
      for (const q of QUESTIONS) {
        seen[q] = await t.waitFor(`? ${q}`);
        t.key('Enter');
      }
      // Each question showed its default before Enter took it.
      expect(seen['Buyer name']).toContain('? Buyer name (Asha Verma)');
      expect(seen['Return address after payment']).toContain('(http://127.0.0.1:4010/return/)');
      expect(await t.exited()).toBe(0);
      const screen = t.screen({ joined: true });
      // The defaults were on screen, and the review showed them before sending.
      expect(screen).toContain('✔ Buyer name Asha Verma');
      expect(screen).toMatch(/return_url\s+http:\/\/127\.0\.0\.1:4010\/return\//);
      const id = /order_id\s+(OD\d+)/.exec(screen)?.[1];
      expect(id).toBeDefined();
      const order = await pgwInProcess(['order', 'get', id!, '--json'], { env: { PGW_CONFIG_DIR: dir } });
      expect(JSON.parse(order.stdout).buyer.name).toBe('Asha Verma');
    } finally {
      t.close();
    }
  }, 120_000);
});
