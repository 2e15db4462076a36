// `pgw payment verification` read by a person at an 80-column terminal (tmux, the built binary).
// In a file of its own: a test that runs only where tmux is leaves its file out of the parity
// report's count, and the rest of the verification walk belongs in it (test/e2e/verification.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-verification-80-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ok(...args: string[]): Promise<string> {
  const r = await spawnPgw(args, { env: { PGW_CONFIG_DIR: dir } });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}
const json = async (...args: string[]): Promise<any> => JSON.parse(await ok(...args, '-o', 'json'));

describe.runIf(hasTmux)('pgw payment verification at 80 columns', () => {
  it.runIf(hasTmux)('at 80 columns the checklist fits: every code whole, satisfied and provided shown, a dropped column named', async () => {
    const [vba] = await json('vba', 'create');
    const pr = (await json('sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '10', '--utr', `UTRV80${process.pid}`)).payment_id;
    await ok('payment', 'verify', pr, '--field', 'business_model=B2B', '--field', 'purpose_code=S0802');
    const t = startPgw(['payment', 'verification', pr], { env: { PGW_CONFIG_DIR: dir }, columns: 80 });
    try {
      expect(await t.exited()).toBe(0);
      const screen = t.screen();
      for (const line of screen.split('\n')) expect([...line].length, screen).toBeLessThanOrEqual(80);
      for (const code of ['buyer_address_line_1', 'buyer_postal_code', 'invoice_amount', 'declaration', 'invoice']) expect(screen, code).toMatch(new RegExp(`│ ${code} +│`));
      expect(screen).toContain('satisfied');
      expect(screen).toMatch(/buyer_name +│[^\n]*yes/);
      expect(screen).toMatch(/documents +invoice/);
      expect(screen.replace(/\n +/g, ' ')).toMatch(/columns? hidden \([^)]*label/);
    } finally {
      t.close();
    }
  });

});
