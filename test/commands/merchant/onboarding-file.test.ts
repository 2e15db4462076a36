// A PSP's onboarding from a file (issue 33 items 1 and 2), through the built binary against the
// sandbox: the guided flow's SWIFT/BIC rule, duplicates within the file and against existing
// sub-merchants refused with their line numbers before anything is sent (--allow-duplicates lets
// them through), and CSV files whose header is the one --print-template --csv prints.
import { describe, expect, it } from 'vitest';
import { jsonl, merchantBody, numbersOf, readJsonl, useSandbox } from './helpers.js';

const sb = useSandbox();

async function brandsLike(prefix: string): Promise<string[]> {
  return (await sb.subMerchants()).map((m) => m.brand_name).filter((b) => b.startsWith(prefix)).sort();
}

describe('a file run holds the guided flow rules and refuses duplicates', () => {
  it("the issue's five rows: an IFSC-shaped SWIFT, an empty SWIFT and a repeated row are listed with their lines; nothing is created", async () => {
    const rows = [
      merchantBody('Five 1'),
      merchantBody('Five 2', { settlement: { bank_swift_code: 'SBI0001234' } }),
      merchantBody('Five 3', { settlement: { bank_swift_code: '' } }),
      merchantBody('Five 4'),
      merchantBody('Five 4'),
    ];
    const file = sb.file('five.jsonl', jsonl(rows));
    const r = await sb.pgw(['merchant', 'create', '--file', file, '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: 3 of 5 lines in ${file} are refused, nothing was sent`);
    expect(r.stderr).toContain('  line 2: settlement_details.bank_swift_code: a SWIFT/BIC code is 8 or 11 characters (this one has 10)\n');
    expect(r.stderr).toContain('  line 3: settlement_details.bank_swift_code: is empty: give the 8- or 11-character SWIFT/BIC code, or leave the field out\n');
    expect(r.stderr).toContain('  line 5: duplicate: identical to line 4\n');
    expect(r.stderr).not.toMatch(/line [14]:/);
    expect(r.stderr).toContain('--allow-duplicates creates them anyway');
    // Checked with `merchant list` itself: none of the five exists.
    const list = await sb.pgw(['merchant', 'list', '--all', '--json']);
    expect(JSON.parse(list.stdout).map((m: { brand_name: string }) => m.brand_name)).not.toContain('Five 1');
    expect(await brandsLike('Five')).toEqual([]);
  });

  it('a SWIFT of a letter shape the guided flow refuses is refused from a file; a lower-case one is sent in capitals', async () => {
    const bad = await sb.pgw(['merchant', 'create', '--file', sb.file('sw.json', JSON.stringify(merchantBody('Swift Bad', { settlement: { bank_swift_code: '1234INBBXXX' } }))), '-o', 'table']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('settlement_details.bank_swift_code: a SWIFT/BIC code is 4 letters (bank)');
    const ok = await sb.pgw(['merchant', 'create', '--file', sb.file('sw2.json', JSON.stringify(merchantBody('Swift Low', { settlement: { bank_swift_code: ' hdfcinbb ' } }))), '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).settlement_details.bank_swift_code).toBe('HDFCINBB');
  });

  it('same registration_number or tax_id as an earlier row, or as an existing sub-merchant, is a duplicate', async () => {
    const existing = await sb.pgw(['merchant', 'create', '--file', sb.file('ex.json', JSON.stringify(merchantBody('Dup Existing'))), '--json']);
    expect(existing.code, existing.stderr).toBe(0);
    const existingId = JSON.parse(existing.stdout).id as string;
    const rows = [
      merchantBody('Dup 1'),
      merchantBody('Dup 2', { company: { registration_number: numbersOf('Dup 1').registration_number } }),
      merchantBody('Dup 3', { company: { tax_id: numbersOf('Dup 1').tax_id.toLowerCase() } }),
      merchantBody('Dup 4', { company: { tax_id: numbersOf('Dup Existing').tax_id } }),
      merchantBody('Dup 5'),
    ];
    const file = sb.file('dup.jsonl', jsonl(rows));
    const r = await sb.pgw(['merchant', 'create', '--file', file, '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('  line 2: duplicate: same registration_number as line 1\n');
    expect(r.stderr).toContain('  line 3: duplicate: same tax_id as line 1\n');
    expect(r.stderr).toContain(`  line 4: duplicate: same tax_id as sub-merchant ${existingId} (Dup Existing)\n`);
    expect(await brandsLike('Dup ')).toEqual(['Dup Existing']);

    // One merchant in a file is checked against the existing ones too.
    const one = await sb.pgw(['merchant', 'create', '--file', sb.file('dup1.json', JSON.stringify(merchantBody('Dup Existing'))), '-o', 'table']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain(`duplicate: same registration_number and tax_id as sub-merchant ${existingId} (Dup Existing), nothing was sent`);
    expect(one.stderr).toContain('hint: --allow-duplicates creates it anyway');

    const allowed = await sb.pgw(['merchant', 'create', '--file', file, '--allow-duplicates', '--json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await brandsLike('Dup ')).toEqual(['Dup 1', 'Dup 2', 'Dup 3', 'Dup 4', 'Dup 5', 'Dup Existing']);
  });

  it('--allow-duplicates creates identical rows; the results file gives them the same hash, the one that made them duplicates', async () => {
    const file = sb.file('twins.jsonl', jsonl([merchantBody('Twin'), merchantBody('Twin')]));
    const results = `${sb.dir}/twins-results.jsonl`;
    const refused = await sb.pgw(['merchant', 'create', '--file', file, '--results', results, '-o', 'table']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: duplicate: identical to line 1');
    const r = await sb.pgw(['merchant', 'create', '--file', file, '--results', results, '--allow-duplicates', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 created (2 lines)');
    const lines = readJsonl(results);
    expect(lines).toHaveLength(2);
    expect(lines[0].hash).toBe(lines[1].hash);
    expect(lines[0].id).not.toBe(lines[1].id);
    expect(await brandsLike('Twin')).toEqual(['Twin', 'Twin']);
  });

  it('--skip-invalid sends the rows that are neither invalid nor duplicates', async () => {
    const file = sb.file('skipdup.jsonl', jsonl([merchantBody('SkipDup 1'), merchantBody('SkipDup 1'), merchantBody('SkipDup 2')]));
    const r = await sb.pgw(['merchant', 'create', '--file', file, '--skip-invalid', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).map((x: { status: string }) => x.status)).toEqual(['created', 'invalid', 'created']);
    expect(await brandsLike('SkipDup')).toEqual(['SkipDup 1', 'SkipDup 2']);
  });
});

/** A CSV cell as RFC 4180 writes it. */
const cell = (v: unknown): string => {
  const text = v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

function csvOf(header: string[], bodies: any[]): string {
  const rows = bodies.map((b) => header.map((path) => {
    const [object, key] = path.split('.') as [string, string];
    return cell(b[object]?.[key]);
  }).join(','));
  return `${[header.join(','), ...rows].join('\r\n')}\r\n`;
}

describe('merchant create --file takes CSV', () => {
  it('--print-template --csv prints a header of dotted field names and an example row; that file, edited, creates merchants', async () => {
    const t = await sb.pgw(['merchant', 'create', '--print-template', '--csv']);
    expect(t.code).toBe(0);
    const [headerLine, example] = t.stdout.split('\r\n');
    const header = headerLine!.split(',');
    expect(header).toContain('company_details.legal_name');
    expect(header).toContain('settlement_details.bank_swift_code');
    expect(header).toContain('company_details.email');
    expect(header.every((h) => /^(company_details|settlement_details)\.[a-z_]+$/.test(h))).toBe(true);
    expect(example).toContain('"62141000,85176290"');

    // Bodies as JSON, written under the printed header; one address holds a comma, a quote and a line break.
    const a = merchantBody('Sheet A', { company: { registered_address: '5 Export Lane, "Block B"\nAndheri' }, settlement: { bank_pincode: undefined } });
    const b = merchantBody('Sheet B', { company: { same_as_registered_address: false, communication_address: '9 Office Road', communication_city: 'Pune', communication_state: 'MH', communication_country: 'India', communication_pincode: '411001', hs_codes: ['62141000', '85176290'] } });
    const file = sb.file('sheet.csv', csvOf(header, [a, b]));
    const results = `${sb.dir}/sheet-results.jsonl`;
    const r = await sb.pgw(['merchant', 'create', '--file', file, '--results', results, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 created (2 lines)');
    // Rows are named by the line they start on: the quoted line break puts B on line 4.
    const lines = readJsonl(results);
    expect(lines.map((l) => [l.line, l.brand_name])).toEqual([[2, 'Sheet A'], [4, 'Sheet B']]);

    const got = await sb.pgw(['merchant', 'get', lines[0].id, lines[1].id, '--json']);
    const [ga, gb] = JSON.parse(got.stdout);
    expect(ga.company_details.registered_address).toBe('5 Export Lane, "Block B"\nAndheri');
    expect(ga.company_details.same_as_registered_address).toBe(true); // typed: a boolean, not "true"
    expect(ga.settlement_details).not.toHaveProperty('bank_pincode'); // an empty cell is a field left out
    expect(gb.company_details.hs_codes).toEqual(['62141000', '85176290']);
    expect(gb.company_details.same_as_registered_address).toBe(false);

    // The same merchant from CSV or JSON Lines has the same hash: a JSON Lines run sees it as already created.
    const again = await sb.pgw(['merchant', 'create', '--file', sb.file('sheet-again.jsonl', jsonl([a])), '-o', 'table']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('line 1: duplicate: same registration_number and tax_id as sub-merchant');
  });

  it('a header with an unknown field name is one line naming the column, exit 2, nothing sent', async () => {
    const header = ['company_details.legal_name', 'company_details.brand_nme', 'settlement_details.bank_name'];
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('badhead.csv', `${header.join(',')}\nX,Y,Z\n`), '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --file: ' + `${sb.dir}/badhead.csv` + ': column 2 "company_details.brand_nme" is not a sub-merchant field (did you mean company_details.brand_name?)');
    expect(await brandsLike('Y')).toEqual([]);
  });

  it('CSV is recognised by its header too (stdin), and a row invalid by the schema is named by its line', async () => {
    const t = await sb.pgw(['merchant', 'create', '--print-template', '--csv']);
    const header = t.stdout.split('\r\n')[0]!.split(',');
    const good = merchantBody('Stdin CSV');
    const bad = merchantBody('Stdin Bad', { company: { purpose_code: 'X1' } });
    const r = await sb.pgw(['merchant', 'create', '--file', '-', '-o', 'table'], { input: csvOf(header, [good, bad]) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 3: company_details.purpose_code: must be P or S followed by 4 digits');
    const ok = await sb.pgw(['merchant', 'create', '--file', '-', '-o', 'table'], { input: csvOf(header, [good]) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await brandsLike('Stdin')).toEqual(['Stdin CSV']);
  });

  it('--csv goes with --print-template only', async () => {
    const r = await sb.pgw(['merchant', 'create', '--csv', '--file', 'x.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--csv goes with --print-template');
  });
});

describe('the look-up of existing sub-merchants on another gateway (MockAgent)', () => {
  const origin = 'https://api-pacb.eximpe.com';
  const env = (dir: string) => ({ PGW_CONFIG_DIR: dir, PGW_BASE_URL: origin, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sekret-dup-0001' });
  const page = (results: unknown[]) => ({ success: true, message: 'ok', data: { count: results.length, page: 1, page_size: 1000, next: null, previous: null, results } });
  const isList = (p: string) => p.startsWith('/partners/merchants/?');

  it('reads every existing sub-merchant\'s details and refuses the row that has its number; nothing is created', async () => {
    const { MockAgent } = await import('undici');
    const { runCli, tempConfigDir } = await import('../../helpers/run.js');
    const agent = new MockAgent();
    agent.disableNetConnect();
    const tmp = tempConfigDir();
    try {
      const pool = agent.get(origin);
      // The list twice (its newest change, then all of it) and the one look-up (issue 44 item 7).
      pool.intercept({ path: isList, method: 'GET' }).reply(200, page([{ id: '77', brand_name: 'Old', kyc_status: 'APPROVED', created_date: '2026-01-01T00:00:00Z' }])).times(2);
      pool.intercept({ path: '/partners/merchants/77/', method: 'GET' }).reply(200, { success: true, message: 'ok', data: { id: '77', company_details: { brand_name: 'Old', ...numbersOf('Prod Old') }, updated_at: '2026-01-01T00:00:00Z' } });
      const file = sb.file('prod-dup.jsonl', jsonl([merchantBody('Prod New'), merchantBody('Prod Again', { company: { registration_number: numbersOf('Prod Old').registration_number } })]));
      const r = await runCli(['merchant', 'create', '--file', file, '--yes', '-o', 'table'], { dispatcher: agent, env: env(tmp.dir) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('line 2: duplicate: same registration_number as sub-merchant 77 (Old)');
      agent.assertNoPendingInterceptors(); // the list and the one look-up, and no create
    } finally {
      await agent.close();
      tmp.cleanup();
    }
  });

  it('when the existing ones cannot be read, the rows refused by the file\'s own checks are still listed, and the line says what was not checked', async () => {
    const { MockAgent } = await import('undici');
    const { runCli, tempConfigDir } = await import('../../helpers/run.js');
    const agent = new MockAgent();
    agent.disableNetConnect();
    const tmp = tempConfigDir();
    try {
      agent.get(origin).intercept({ path: isList, method: 'GET' }).reply(503, { success: false, error: { code: 'DOWN', message: 'maintenance', details: null } }).persist(); // a GET is tried again
      const file = sb.file('prod-down.jsonl', jsonl([merchantBody('Down 1'), merchantBody('Down 2', { settlement: { bank_swift_code: 'SBI0001234' } })]));
      const r = await runCli(['merchant', 'create', '--file', file, '--yes', '-o', 'table'], { dispatcher: agent, env: env(tmp.dir) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('line 2: settlement_details.bank_swift_code: a SWIFT/BIC code is 8 or 11 characters');
      expect(r.stderr).toMatch(/not checked against existing sub-merchants: .*maintenance/);
    } finally {
      await agent.close();
      tmp.cleanup();
    }
  });
});
