// Templates, interactive defaults and generated invoice numbers and dates follow the account's
// sandbox clock on pgw's own sandbox, not the machine's date (issue 41 item 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunOptions } from '../../helpers/run.js';
import { ACCEPT_DEFAULT, fakePrompter, type Answer } from '../../helpers/fake-prompter.js';

const tmp = tempConfigDir();
const pgw = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { PGW_CONFIG_DIR: tmp.dir, NO_COLOR: '1' } });

beforeAll(async () => {
  expect((await pgw(['sandbox', 'clock', 'set', '2031-03-15T09:00:00Z'])).code).toBe(0);
});
afterAll(() => tmp.cleanup());

describe('dates on the sandbox clock', () => {
  it('order create --print-template: invoice date and number, reference, card expiry', async () => {
    const body = JSON.parse((await pgw(['order', 'create', '--print-template', '--mode', 's2s', '--mop', 'credit_card'])).stdout);
    expect(body.invoice).toEqual({ number: 'INV-2031-0001', date: '2031-03-15' });
    expect(body.reference_id).toBe('order-20310315-0001');
    expect(body.card_details.expiry_year).toBe('2034');
  });

  it('link create --print-template: expires a week ahead of the sandbox, invoice number of its year', async () => {
    const body = JSON.parse((await pgw(['link', 'create', '--print-template'])).stdout);
    expect(body.expiry_date).toMatch(/^2031-03-22T09:/);
    expect(body.invoice.number).toBe('INV2031001');
  });

  it("the interactive order create offers an invoice number dated by the sandbox's clock", async () => {
    const prompter = fakePrompter(...Array.from({ length: 16 }, (): Answer => ACCEPT_DEFAULT));
    const r = await pgw(['order', 'create', '--dry-run', '--json'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.find((q) => q.message.includes('Invoice number'))?.default).toMatch(/^INV20310315/);
  });

  it('a profile that does not resolve still gets a template, on the machine clock', async () => {
    const r = await pgw(['order', 'create', '--print-template', '--profile', 'no-such-profile']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).invoice.date).toBe(new Date().toISOString().slice(0, 10));
  });
});
