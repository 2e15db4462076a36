// What an operator reads after onboarding (issue 33 items 3 and 4), through the built binary
// against the sandbox: `merchant list -o csv` and `merchant get <id...> -o csv` with the columns a
// sheet is filtered on, the kyc hint naming the real ID when an update is refused for its status,
// and `sandbox merchant kyc … APPROVED` saying where MERCHANT_APPROVED actually went.
import { beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, useSandbox } from './helpers.js';

const sb = useSandbox();
const HEADER = 'id,legal_name,brand_name,kyc_status,country,email,created_at,updated_at';
let a: string;
let b: string;

/** RFC 4180 rows (no quoted line breaks here). */
const rowsOf = (csv: string): string[][] => csv.split('\r\n').filter((l) => l !== '').map((l) => l.split(','));

beforeAll(async () => {
  const one = await sb.pgw(['merchant', 'create', '--file', sb.file('a.json', JSON.stringify(merchantBody('Sheet One', { company: { email: 'ops@one.example', registered_country: 'Singapore' } }))), '--json']);
  const two = await sb.pgw(['merchant', 'create', '--file', sb.file('b.json', JSON.stringify(merchantBody('Sheet Two'))), '--json']);
  expect(one.code, one.stderr).toBe(0);
  expect(two.code, two.stderr).toBe(0);
  a = JSON.parse(one.stdout).id;
  b = JSON.parse(two.stdout).id;
});

describe('merchant list and get -o csv', () => {
  it('list -o csv has id, legal name, brand, kyc_status, country, email, created and updated', async () => {
    const r = await sb.pgw(['merchant', 'list', '--all', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows[0]!.join(',')).toBe(HEADER);
    const row = rows.find((x) => x[0] === a)!;
    expect(row.slice(1, 6)).toEqual(['Sheet One Private Limited', 'Sheet One', 'PENDING', 'Singapore', 'ops@one.example']);
    expect(row[6]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(row[7]).toMatch(/^\d{4}-\d\d-\d\dT/);
    // No email given: the sandbox answers with its PSP's contact as a stand-in (docs/sandbox.md,
    // "Optional keys and required fields"), and the column shows what the gateway answered.
    expect(rows.find((x) => x[0] === b)!.slice(1, 6)).toEqual(['Sheet Two Private Limited', 'Sheet Two', 'PENDING', 'India', 'partners@demo-psp.example']);
  });

  it('get takes -o csv for several IDs (same columns, in the order given) and for one', async () => {
    const r = await sb.pgw(['merchant', 'get', b, a, '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows[0]!.join(',')).toBe(HEADER);
    expect(rows.slice(1).map((x) => [x[0], x[2]])).toEqual([[b, 'Sheet Two'], [a, 'Sheet One']]);
    const one = await sb.pgw(['merchant', 'get', a, '-o', 'csv']);
    expect(one.code, one.stderr).toBe(0);
    expect(rowsOf(one.stdout).map((x) => x[0])).toEqual(['id', a]);
  });
});

describe('an update refused for its kyc_status, and MERCHANT_APPROVED', () => {
  it('APPROVED with no webhook address says nothing was sent; the refused update names the kyc command with the real ID', async () => {
    const approve = await sb.pgw(['sandbox', 'merchant', 'kyc', a, 'APPROVED', '-o', 'table']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stderr).not.toContain("sent to the PSP's webhook addresses");
    expect(approve.stderr).toMatch(/MERCHANT_APPROVED EV\S+ recorded, but no webhook address is registered for this account: it was sent nowhere \(run pgw listen, or pgw sandbox webhook add <url>\)/);
    const events = await sb.pgw(['events', 'list', '--type', 'MERCHANT_APPROVED', '--about', a, '--json']);
    expect(JSON.parse(events.stdout)[0].status).toBe('no_address');

    const refused = await sb.pgw(['merchant', 'update', a, '--set', 'company_details.website=https://one.example', '-o', 'table']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('can be updated only while PENDING or CHANGES_REQUESTED');
    expect(refused.stderr).toContain(`hint: on the sandbox, ask for changes first: pgw sandbox merchant kyc ${a} CHANGES_REQUESTED; then run the update again`);
    const back = await sb.pgw(['sandbox', 'merchant', 'kyc', a, 'CHANGES_REQUESTED', '-o', 'table']);
    expect(back.code).toBe(0);
    const again = await sb.pgw(['merchant', 'update', a, '--set', 'company_details.website=https://one.example', '-o', 'table']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('APPROVED with an address registered names where it was sent', async () => {
    const url = 'http://127.0.0.1:9/approved-hook';
    const add = await sb.pgw(['sandbox', 'webhook', 'add', url]);
    expect(add.code, add.stderr).toBe(0);
    const approve = await sb.pgw(['sandbox', 'merchant', 'kyc', b, 'APPROVED', '-o', 'table']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stderr).toMatch(new RegExp(`MERCHANT_APPROVED EV\\S+ sent to ${url.replace(/[.]/g, '\\.')}; attempts: pgw events get EV`));
    expect(approve.stderr).not.toContain('no webhook address');
  });
});
