// The guided merchant create in a terminal, through the fake prompter against the sandbox: each
// answer validated as given (a wrong one is asked again), sections, the summary and its choices.
import { describe, expect, it } from 'vitest';
import { ACCEPT_DEFAULT, fakePrompter, interrupt, type ScriptedAnswer } from '../../helpers/fake-prompter.js';
import { useSandbox } from './helpers.js';
import { FIELDS } from '../../../src/commands/merchant/fields.js';
import { answerCheck } from '../../../src/commands/merchant/prompt-flow.js';

const sb = useSandbox();

const q = (message: string, answer: ScriptedAnswer['answer'], extra: Partial<ScriptedAnswer> = {}): ScriptedAnswer => ({ message, answer, ...extra });

function company(brand: string): ScriptedAnswer[] {
  return [
    q('Legal name', `${brand} Private Limited`),
    q('Brand name', brand),
    q('Registration number', 'U12345MH2020PTC123456'),
    q('Organisation type', ACCEPT_DEFAULT),
    q('Tax ID', 'ABCDE1234F'),
    q('Website', 'acme', { rejectedWith: 'must be an http:// or https:// address' }),
    q('Website', 'https://flow.example'),
  ];
}

function registered(same: boolean): ScriptedAnswer[] {
  return [
    q('Registered address', '5 Export Lane'),
    q('Registered city', 'Mumbai'),
    q('Registered state', 'Maharashtra'),
    q('Registered country', 'India'),
    q('Registered postal code', '', { rejectedWith: 'must not be empty' }),
    q('Registered postal code', '400002'),
    { kind: 'confirm', message: 'Communication address same as registered?', answer: same },
  ];
}

const communication: ScriptedAnswer[] = [
  q('Communication address', '9 Office Road'),
  q('Communication city', 'Pune'),
  q('Communication state', 'Maharashtra'),
  q('Communication country', 'India'),
  q('Communication postal code', '411001'),
];

const business: ScriptedAnswer[] = [
  q('Monthly average transaction value', '1.234', { rejectedWith: 'must be a decimal string' }),
  q('Monthly average transaction value', '250000.00'),
  q('Monthly average transaction volume', '12.5', { rejectedWith: 'must be a numeric string' }),
  q('Monthly average transaction volume', '1200'),
  q('Business category', ACCEPT_DEFAULT),
  q('Business mode', ACCEPT_DEFAULT),
  q('Payment terms', 'NET_30'),
  q('Commodity', ''),
  q('Category', ''),
  q('HS codes', '62141000, 6214100', { rejectedWith: 'item 2: must be an 8-digit HS code' }),
  q('HS codes', '62141000, 85176290'),
  q('Description of products', ''),
  q('Agreement details', ''),
  q('Purpose code', 'X0802', { rejectedWith: 'must be P or S followed by 4 digits' }),
  q('Purpose code', 'P0802'),
];

const bank: ScriptedAnswer[] = [
  q('Bank account name', ACCEPT_DEFAULT), // the legal name, suggested
  q('Bank account number', '0001 2345', { rejectedWith: 'must be 4-34 letters or digits' }),
  q('Bank account number', '000123456789'),
  q('Bank name', '', { rejectedWith: 'must not be empty' }),
  q('Bank name', 'HDFC Bank'),
  q('SWIFT/BIC code', 'HDFCINBBXXX'),
  q('Branch name', ''),
  q('Bank address', ''),
  q('Bank city', ''),
  q('Bank state', ''),
  q('Bank country', ACCEPT_DEFAULT), // the registered country, suggested
  q('Bank postal code', ''),
  q('Routing number', ''),
  q('Settlement currency', ''),
];

const choose = (value: string): ScriptedAnswer => ({ kind: 'select', message: 'Create this sub-merchant?', answer: value });

describe('merchant create: the guided prompt flow', () => {
  it('asks section by section, re-asks rejected answers, skips the communication address when the same, shows a summary, creates', async () => {
    const prompter = fakePrompter(...company('Flow One'), ...registered(true), ...business, ...bank, choose('create'));
    const r = await sb.pgw(['merchant', 'create'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(prompter.asked.some((a) => a.message.startsWith('Communication address ('))).toBe(false);
    expect(prompter.asked.flatMap((a) => a.rejections)).toHaveLength(8);
    // Sections on stderr, then the summary with what was typed (defaults included).
    for (const title of ['Company', 'Registered address', 'Business details', 'Settlement bank']) expect(r.stderr).toContain(`\n${title}\n`);
    expect(r.stderr).not.toContain('\nCommunication address\n');
    expect(r.stderr).toMatch(/bank_account_name\s+Flow One Private Limited/);
    expect(r.stderr).toMatch(/hs_codes\s+62141000, 85176290/);
    expect(r.stderr).toMatch(/same_as_registered_address\s+yes/);
    expect(r.stdout).toMatch(/Sub-merchant [0-9]+/);
    const created = (await sb.subMerchants()).filter((m) => m.brand_name === 'Flow One');
    expect(created).toHaveLength(1);
  });

  it('asks the communication address when it differs; "change a field" re-asks that one field with its answer as default', async () => {
    const editCompany: ScriptedAnswer[] = [q('Brand name', 'Flow Two Renamed')];
    const prompter = fakePrompter(
      ...company('Flow Two'),
      ...registered(false),
      ...communication,
      ...business,
      ...bank,
      choose('edit'),
      { kind: 'search', message: 'Which field?', answer: 'typed:brand' }, // narrows to the brand name
      ...editCompany,
      choose('create'),
    );
    const r = await sb.pgw(['merchant', 'create', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.company_details).toMatchObject({
      brand_name: 'Flow Two Renamed',
      legal_name: 'Flow Two Private Limited',
      website: 'https://flow.example',
      same_as_registered_address: false,
      communication_city: 'Pune',
      communication_pincode: '411001',
      hs_codes: ['62141000', '85176290'],
    });
    expect(data.company_details).not.toHaveProperty('commodity'); // an empty optional answer is left out
    const editQuestion = prompter.asked.filter((a) => a.message === 'Brand name');
    expect(editQuestion[1]!.default).toBe('Flow Two');
  });

  it('switching the address to "same" drops the communication address given earlier', async () => {
    const prompter = fakePrompter(
      ...company('Flow Three'),
      ...registered(false),
      ...communication,
      ...business,
      ...bank,
      choose('edit'),
      { kind: 'search', message: 'Which field?', answer: 'company_details.same_as_registered_address' },
      { kind: 'confirm', message: 'Communication address same', answer: true },
      choose('create'),
    );
    const r = await sb.pgw(['merchant', 'create', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    const details = JSON.parse(r.stdout).company_details;
    expect(details.same_as_registered_address).toBe(true);
    expect(Object.keys(details).filter((k) => k.startsWith('communication_'))).toEqual([]);
  });

  it('Enter at the summary creates (issue 22 item 5); the field list leads back', async () => {
    const before = (await sb.subMerchants()).length;
    const prompter = fakePrompter(
      ...company('Flow Enter'),
      ...registered(true),
      ...business,
      ...bank,
      choose('edit'),
      { kind: 'search', message: 'Which field?', answer: ACCEPT_DEFAULT },
      { kind: 'select', message: 'Create this sub-merchant?', answer: ACCEPT_DEFAULT },
    );
    const r = await sb.pgw(['merchant', 'create'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    const summary = prompter.asked.filter((a) => a.message === 'Create this sub-merchant?').at(-1)!;
    expect(summary.default).toBe('create');
    expect(summary.answer).toBe('create');
    expect((await sb.subMerchants()).length).toBe(before + 1);
    // The label does not repeat its example next to the default; a next step follows creation.
    const orgType = prompter.asked.find((a) => a.message.startsWith('Organisation type'))!;
    expect(orgType.message).toBe('Organisation type');
    expect(orgType.default).toBe('PRIVATE_LIMITED');
    const id = /Sub-merchant ([0-9]+)/.exec(r.stdout)![1];
    expect(r.stderr).toContain(`next: pgw sandbox merchant kyc ${id} APPROVED`);
  });

  it('cancel at the summary is exit 6 and nothing is sent', async () => {
    const before = (await sb.subMerchants()).length;
    const prompter = fakePrompter(...company('Flow Cancel'), ...registered(true), ...business, ...bank, choose('cancel'));
    const r = await sb.pgw(['merchant', 'create'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('merchant create cancelled: nothing was sent');
    expect((await sb.subMerchants()).length).toBe(before);
  });

  it('Ctrl-C at a question is exit 130 and nothing is sent', async () => {
    const before = (await sb.subMerchants()).length;
    const prompter = fakePrompter(q('Legal name', 'X Ltd'), q('Brand name', interrupt()));
    const r = await sb.pgw(['merchant', 'create'], { tty: true, prompter });
    expect(r.code).toBe(130);
    expect((await sb.subMerchants()).length).toBe(before);
  });

  it('--dry-run after the flow prints the request instead of sending it', async () => {
    const before = (await sb.subMerchants()).length;
    const prompter = fakePrompter(...company('Flow Dry'), ...registered(true), ...business, ...bank, choose('create'));
    const r = await sb.pgw(['merchant', 'create', '--dry-run'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"brand_name": "Flow Dry"');
    expect((await sb.subMerchants()).length).toBe(before);
  });

  it('--no-input in a terminal refuses instead of asking (exit 2)', async () => {
    const prompter = fakePrompter();
    const r = await sb.pgw(['merchant', 'create', '--no-input'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });
});

describe('answerCheck (the validate of each question)', () => {
  const field = (path: string) => FIELDS.find((f) => f.path === path)!;
  it('uses the shared field rules; empty is fine only for optional fields', () => {
    expect(answerCheck(field('company_details.purpose_code'))('')).toBe(true);
    expect(answerCheck(field('company_details.registered_pincode'))('')).toBe('must not be empty');
    expect(answerCheck(field('company_details.registered_pincode'))('94103')).toBe(true);
    expect(answerCheck(field('company_details.monthly_avg_transaction_value'))('')).toBe(true);
    expect(answerCheck(field('company_details.hs_codes'))('["62141000"]')).toBe(true);
    expect(answerCheck(field('company_details.hs_codes'))('[62141000')).toBe('must be a JSON array or a comma-separated list');
    expect(answerCheck(field('settlement_details.bank_swift_code'))('HDFCINBB')).toBe(true);
  });
});
