// Issue 22 item 5 through the built binary in a real terminal (tmux, 100 columns; the check after
// it in-process): the guided merchant create takes a country by name with completion as you type,
// SWIFT/BIC is 8 or 11 characters, no label says "(optional)" twice, the field picker narrows as
// you type, and Enter at the review creates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';
import { hasTmux, startPgw, type TmuxSession } from '../helpers/tmux.js';
import { FIELDS } from '../../src/commands/merchant/fields.js';

let dir: string;
const env: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-guided-'));
  env.PGW_CONFIG_DIR = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What is typed for each required field without a suggestion; optional ones are left empty. */
const TYPED: Record<string, string> = {
  legal_name: 'Tmux Trading FZE',
  brand_name: 'Tmux Trading',
  registration_number: 'FZ-2026-001',
  tax_id: 'TRN-100',
  website: 'https://tmux.example',
  registered_address: '1 Business Bay',
  registered_city: 'Dubai',
  registered_state: 'Dubai',
  registered_pincode: '00000',
  monthly_avg_transaction_volume: '1200',
  bank_account_number: '000123456789',
  bank_name: 'Arab Bank',
};

async function answer(t: TmuxSession, label: string, keys: string): Promise<string> {
  const screen = await t.waitFor(`? ${label}`);
  if (keys !== '') t.type(keys);
  t.key('Enter');
  return screen;
}

describe.runIf(hasTmux)('guided merchant create in a terminal', () => {
  it('countries by name as you type, SWIFT checked, one "(optional)", a narrowing field picker, Enter creates', async () => {
    const t = startPgw(['-p', 'local-psp', 'merchant', 'create'], { env, columns: 100, rows: 50 });
    try {
      for (const field of FIELDS) {
        if (field.section === 'communication') continue; // same as registered: not asked
        const label = field.label.replace(/ \(e\.g\. [^)]*\)$/, '');
        if (field.key === 'same_as_registered_address') await answer(t, label, 'y');
        else if (field.key === 'registered_country') {
          await t.waitFor(`? ${label}`);
          t.type('united ar');
          // The list narrows as you type: the first match is highlighted, others are gone.
          const narrowed = await t.waitFor(/❯ United Arab Emirates/);
          expect(narrowed).not.toContain('Afghanistan');
          t.key('Enter');
        } else if (field.key === 'bank_country') await answer(t, label, ''); // the registered country, offered first
        else if (field.key === 'bank_swift_code') {
          await answer(t, label, 'ABORAEAD12');
          await t.waitFor('8 or 11 characters (this one has 10)');
          t.key('C-u');
          t.type('aboraeadxxx');
          t.key('Enter');
        } else await answer(t, label, TYPED[field.key] ?? '');
      }
      const review = await t.waitFor('Create this sub-merchant?');
      expect(review).not.toMatch(/\(optional[^)]*\) \(optional\)/);
      expect(review).toMatch(/registered_country\s+United Arab Emirates/);
      expect(review).toMatch(/bank_swift_code\s+ABORAEADXXX/);
      expect(review).toMatch(/❯ Create it/); // the default
      // Change a field through the picker, narrowed by typing.
      t.key('Down');
      t.key('Enter');
      await t.waitFor('? Which field?');
      t.type('websi');
      const picker = await t.waitFor(/❯ Company: Website/);
      expect(picker).not.toMatch(/Company: Legal name/);
      t.key('Enter');
      await answer(t, 'Website', '');
      await t.waitFor(/Create this sub-merchant\?[\s\S]*Create this sub-merchant\?/);
      t.key('Enter'); // Enter creates
      expect(await t.exited()).toBe(0);
      const id = /Sub-merchant ([0-9]+)/.exec(t.screen({ joined: true }))?.[1];
      expect(id).toBeDefined();
      const got = await pgwInProcess(['-p', 'local-psp', 'merchant', 'get', id!, '--json'], { env });
      const data = JSON.parse(got.stdout);
      expect(data.company_details.registered_country).toBe('United Arab Emirates');
      expect(data.settlement_details.bank_country).toBe('United Arab Emirates');
      expect(data.settlement_details.bank_swift_code).toBe('ABORAEADXXX');
    } finally {
      t.close();
    }
  }, 120_000);
});
