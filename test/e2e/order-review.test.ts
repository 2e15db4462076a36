// Issue 22 item 8 through the built binary in a real terminal (tmux): the order flow asks how the
// buyer pays whatever unrelated flag is given (--currency here) and ends on the review; the review
// can go back, keeps a field's value as its default, can change collection_mode (asking for what
// the new mode needs), and `12/29` at the expiry month gives the year too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, startPgw, type TmuxSession } from '../helpers/tmux.js';

let dir: string;
const env: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-order-review-'));
  env.PGW_CONFIG_DIR = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLAGS = [
  '--currency', 'INR', '--amount', '250', '--reference-id', 'tmux-review-1', '--return-url', 'https://shop.example/return',
  '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com', '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road',
  '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001', '--product-name', 'Plan', '--goods', 'service',
];

/** Waits for the question, then picks `choice` in its list by moving down `downs` times. */
async function pick(t: TmuxSession, question: string, downs: number): Promise<string> {
  const screen = await t.waitFor(`? ${question}`);
  for (let i = 0; i < downs; i++) t.key('Down');
  t.key('Enter');
  return screen;
}

/** `text` on the screen at least n times (a question asked again: earlier ones show as answered). */
const nth = (text: string, n: number) => new RegExp(`(${text.replace(/[?()]/g, '\\$&')}[\\s\\S]*){${n}}`);

describe.runIf(hasTmux)('the interactive order flow', () => {
  it('asks the mode with --currency given, reviews, edits with defaults, changes the mode, reads 12/29', async () => {
    const t = startPgw(['order', 'create', ...FLAGS, '--acs-out', join(dir, '3ds.html'), '--json'], { env, columns: 100, rows: 60 });
    try {
      // The mode is asked even though --currency (unrelated) was given.
      await pick(t, 'How will the buyer pay?', 0); // hosted_payment
      await t.waitFor('? Invoice number');
      t.type('INV-7');
      t.key('Enter');
      // The review comes, with a way back from its field list.
      await pick(t, 'Send this order?', 1); // Edit a field
      const list = await t.waitFor('? Which field?');
      expect(list).toContain('(back to the review)');
      expect(list).toContain('collection_mode');
      t.key('Enter'); // back
      await t.waitFor(nth('Send this order?', 2));
      // Edit buyer.name: its value is the default, Enter keeps it.
      t.key('Down');
      t.key('Enter');
      await t.waitFor(nth('Which field?', 2));
      // Move to buyer.name: the list is (back), collection_mode, amount, currency, ... buyer.name.
      const screen = t.screen();
      const items = screen.slice(screen.lastIndexOf('? Which field?')).split('\n').slice(1).filter((l) => /^[ ❯] /.test(l)).map((l) => l.slice(2).trim().split(/\s+/)[0]);
      const downs = items.indexOf('buyer.name');
      expect(downs).toBeGreaterThan(0);
      for (let i = 0; i < downs; i++) t.key('Down');
      t.key('Enter');
      const edit = await t.waitFor('? Buyer name');
      expect(edit).toMatch(/\? Buyer name \(Asha Verma\)/);
      t.key('Enter');
      // Change collection_mode to s2s: what s2s needs is asked (method, card, ...).
      await t.waitFor(nth('Send this order?', 3));
      t.key('Down');
      t.key('Enter');
      await t.waitFor(nth('Which field?', 3));
      t.key('Down'); // collection_mode
      t.key('Enter');
      await pick(t, 'How will the buyer pay?', 1); // s2s
      await pick(t, 'Method of payment', 1); // credit_card
      await pick(t, 'Test card, or your own', 0); // the sandbox's first test card
      await t.waitFor('? Name on the card');
      t.type('Asha Verma');
      t.key('Enter');
      await t.waitFor('? Expiry month');
      t.type('12/29');
      t.key('Enter');
      await t.waitFor('expiry year: 2029');
      await t.waitFor('? CVV');
      t.type('123');
      t.key('Enter');
      await t.waitFor('? Card nickname');
      t.key('Enter');
      await t.waitFor('? Customer identifier');
      t.key('Enter');
      const review = await t.waitFor(nth('Send this order?', 4));
      const last = review.slice(review.lastIndexOf('Review the order'));
      expect(last).toMatch(/collection_mode\s+s2s/);
      expect(last).toMatch(/card_details\.expiry_month\s+12/);
      expect(last).toMatch(/card_details\.expiry_year\s+2029/);
      expect(t.screen()).not.toContain('? Expiry year');
      t.key('Enter'); // Send
      expect(await t.exited()).toBe(0);
    } finally {
      t.close();
    }
  }, 120_000);
});
