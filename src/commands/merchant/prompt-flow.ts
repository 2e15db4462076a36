// The guided `merchant create` in a terminal: the fields section by section (company, registered
// address, communication address unless it is the same, business details, settlement bank), each
// answer checked as it is given by the field's own shared schema (fields.ts), so a wrong answer is
// asked again on the spot; then a summary, and create / edit a section / cancel.
import type { Prompter } from '../../prompts.js';
import type { IO } from '../../output/io.js';
import { RefusedError } from '../../errors.js';
import { FIELDS, checkFieldValue, parseFieldText, type Field, type MerchantObject, type Section } from './fields.js';
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

async function askField(prompter: Prompter, body: DraftBody, field: Field): Promise<void> {
  const values = body[field.object];
  if (field.kind === 'boolean') {
    const current = values[field.key];
    values[field.key] = await prompter.confirm({ message: `${field.label}?`, default: typeof current === 'boolean' ? current : true });
    return;
  }
  const text = await prompter.input({
    message: field.required ? field.label : `${field.label} (optional)`,
    default: asText(values[field.key]) ?? asText(SUGGESTIONS[field.path]?.(body)),
    validate: answerCheck(field),
  });
  if (text.trim() === '' && !field.required) {
    delete values[field.key];
    return;
  }
  const parsed = parseFieldText(field, text);
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
        { name: 'Change a section', value: 'edit' },
        { name: 'Cancel', value: 'cancel' },
      ],
      default: 'create',
    });
    if (choice === 'create') return body;
    if (choice === 'cancel') throw new RefusedError('merchant create cancelled: nothing was sent', { code: 'NOT_CONFIRMED' });
    const section = await prompter.select({
      message: 'Which section?',
      choices: SECTIONS.filter((s) => s !== 'communication' || body.company_details.same_as_registered_address !== true).map((s) => ({
        name: SECTION_TITLES[s],
        value: s,
      })),
    });
    const wasSame = body.company_details.same_as_registered_address;
    await askSection(prompter, io, body, section);
    // same_as_registered_address switched off: ask for the communication address it now needs;
    // (still) on: askSection drops any communication address left from an earlier answer.
    const isSame = body.company_details.same_as_registered_address;
    if (section === 'registered' && (isSame === true || wasSame === true)) await askSection(prompter, io, body, 'communication');
  }
}
