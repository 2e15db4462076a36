// The guided `merchant create` in a terminal: the fields section by section (company, registered
// address, communication address unless it is the same, business details, settlement bank), each
// answer checked as it is given by the field's own shared schema (fields.ts), so a wrong answer is
// asked again on the spot; then a summary, and create / change a field / cancel. Enter at the
// summary creates (issue 22 item 5: after a full review, creating is what the person came for);
// the field list narrows as you type and has a way back. Countries are picked from a list as you
// type (vendor 7.1 wants full country names), and the SWIFT/BIC is 8 or 11 characters.
import { narrowChoices, type Prompter } from '../../prompts.js';
import { COUNTRIES, matchCountries } from './countries.js';
import type { IO } from '../../output/io.js';
import { RefusedError } from '../../errors.js';
import { FIELDS, checkFieldValue, parseFieldText, swiftCheck, type Field, type MerchantObject, type Section } from './fields.js';
import { SECTION_TITLES, bodySummary } from './view.js';

export type DraftBody = Record<MerchantObject, Record<string, unknown>>;

const SECTIONS: readonly Section[] = ['company', 'registered', 'communication', 'business', 'bank'];

/** Values most sub-merchants share (the ones spec 2.10 shows), or an earlier answer worth repeating. */
const SUGGESTIONS: Record<string, (b: DraftBody) => unknown> = {
  'company_details.international_org_type': () => 'PRIVATE_LIMITED',
  'company_details.business_category': () => 'TECHNOLOGY',
  'company_details.business_mode': () => 'B2B',
  'settlement_details.bank_account_name': (b) => b.company_details.legal_name,
  'settlement_details.bank_country': (b) => b.company_details.registered_country,
};

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** What validate says of a typed answer: the same parse and rule --set and the file checks use. */
export function answerCheck(field: Field): (text: string) => true | string {
  return (text) => {
    if (text.trim() === '' && !field.required) return true;
    const parsed = parseFieldText(field, text);
    return 'error' in parsed ? parsed.error : checkFieldValue(field, parsed.value);
  };
}

/** The fields that take a country name (vendor 7.1). */
const isCountry = (field: Field) => field.key.endsWith('_country');

async function askCountry(prompter: Prompter, body: DraftBody, field: Field): Promise<void> {
  const values = body[field.object];
  const fallback = asText(values[field.key]) ?? asText(SUGGESTIONS[field.path]?.(body));
  values[field.key] = await prompter.search({
    message: `${field.label} (type to narrow the list)`,
    choices: COUNTRIES.map((name) => ({ name, value: name })),
    default: fallback !== undefined && COUNTRIES.includes(fallback) ? fallback : undefined,
    filter: matchCountries,
  });
}

async function askField(prompter: Prompter, body: DraftBody, field: Field): Promise<void> {
  const values = body[field.object];
  if (isCountry(field)) return askCountry(prompter, body, field);
  if (field.kind === 'boolean') {
    const current = values[field.key];
    values[field.key] = await prompter.confirm({ message: `${field.label}?`, default: typeof current === 'boolean' ? current : true });
    return;
  }
  const fallback = asText(values[field.key]) ?? asText(SUGGESTIONS[field.path]?.(body));
  // The default is shown in brackets already: no "(e.g. X)" next to it.
  const label = fallback === undefined ? field.label : field.label.replace(/ \(e\.g\. [^)]*\)$/, '');
  const swift = field.key === 'bank_swift_code';
  const check = answerCheck(field);
  const text = await prompter.input({
    // A label that already says "(optional, e.g. ...)" is not told so twice.
    message: field.required || /\(optional/.test(label) ? label : `${label} (optional)`,
    default: fallback,
    validate: swift ? (t) => (t.trim() === '' && !field.required ? true : (check(t) === true ? swiftCheck(t) : check(t))) : check,
  });
  if (text.trim() === '' && !field.required) {
    delete values[field.key];
    return;
  }
  const parsed = parseFieldText(field, swift ? text.trim().toUpperCase() : text);
  if ('value' in parsed) values[field.key] = parsed.value;
}

async function askSection(prompter: Prompter, io: IO, body: DraftBody, section: Section): Promise<void> {
  const fields = FIELDS.filter((f) => f.section === section);
  if (section === 'communication' && body.company_details.same_as_registered_address === true) {
    for (const f of fields) delete body[f.object][f.key];
    return;
  }
  io.err(`\n${SECTION_TITLES[section]}\n`);
  for (const field of fields) await askField(prompter, body, field);
}

/** The whole flow; returns the body the person confirmed. Cancel is exit 6 with nothing sent. */
export async function promptMerchant(prompter: Prompter, io: IO): Promise<DraftBody> {
  const body: DraftBody = { company_details: {}, settlement_details: {} };
  io.err('New sub-merchant: answer each question (Enter keeps the value shown in brackets).\n');
  for (const section of SECTIONS) await askSection(prompter, io, body, section);
  for (;;) {
    io.err(`\n${bodySummary(body)}`);
    const choice = await prompter.select({
      message: 'Create this sub-merchant?',
      choices: [
        { name: 'Create it', value: 'create' },
        { name: 'Change a field', value: 'edit' },
        { name: 'Cancel (nothing is sent)', value: 'cancel' },
      ],
      default: 'create',
    });
    if (choice === 'create') return body;
    if (choice === 'cancel') throw new RefusedError('merchant create cancelled: nothing was sent', { code: 'NOT_CONFIRMED' });
    await changeOneField(prompter, io, body);
  }
}

const BACK = '(back to the summary)';

/** "Which field?": every field of the sections in use with its value; the one chosen is asked again. */
async function changeOneField(prompter: Prompter, io: IO, body: DraftBody): Promise<void> {
  const inUse = FIELDS.filter((f) => f.section !== 'communication' || body.company_details.same_as_registered_address !== true);
  // Narrows as you type (a field's section, label or value), with the way back always offered.
  const choices = [
    { name: BACK, value: BACK },
    ...inUse.map((f) => ({ name: `${SECTION_TITLES[f.section]}: ${f.label.replace(/ \(e\.g\. [^)]*\)$/, '')}  ${asText(body[f.object][f.key]) ?? '-'}`, value: f.path })),
  ];
  const path = await prompter.search({
    message: 'Which field? (type to narrow the list)',
    choices,
    default: BACK,
    filter: (term) => [...narrowChoices(choices.slice(1), term).map((c) => c.value), BACK],
  });
  const field = inUse.find((f) => f.path === path);
  if (!field) return;
  const wasSame = body.company_details.same_as_registered_address;
  await askField(prompter, body, field);
  // same_as_registered_address switched off: ask for the communication address it now needs;
  // switched on: askSection drops the communication address given earlier.
  if (field.key === 'same_as_registered_address' && body.company_details.same_as_registered_address !== wasSame) {
    await askSection(prompter, io, body, 'communication');
  }
}
