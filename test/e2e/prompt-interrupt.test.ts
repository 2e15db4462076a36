// Issue 22 item 11 through the built binary in a real terminal (tmux): Ctrl-C at a select prompt
// clears the menu's lines (exit 130), and an answered select still leaves its one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
const env: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-interrupt-'));
  env.PGW_CONFIG_DIR = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(hasTmux)('Ctrl-C at a select prompt', () => {
  it('clears the menu lines and exits 130', async () => {
    const t = startPgw(['order', 'create'], { env, columns: 80 });
    try {
      await t.waitFor('❯ hosted_payment');
      t.key('C-c');
      expect(await t.exited()).toBe(130);
      const screen = t.screen();
      expect(screen).not.toContain('hosted_payment');
      expect(screen).not.toContain('❯');
      expect(screen).not.toContain('navigate');
    } finally {
      t.close();
    }
  }, 60_000);

  it('an answered select leaves its answer line, and the menu is gone', async () => {
    const t = startPgw(['order', 'create'], { env, columns: 80 });
    try {
      await t.waitFor('❯ hosted_payment');
      t.key('Down');
      t.key('Enter');
      const screen = await t.waitFor('? Method of payment');
      expect(screen).toContain('✔ How will the buyer pay? s2s');
      expect(screen).not.toContain('hosted checkout page: the buyer picks');
      t.key('C-c');
      expect(await t.exited()).toBe(130);
      expect(t.screen()).not.toContain('credit_card');
    } finally {
      t.close();
    }
  }, 60_000);
});
