// The review before an order that was (partly) asked for is sent: every value, the card masked,
// then Send / Edit a field / Cancel. Editing re-asks that one field, checked like the first time.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { maskCardNumber } from '../../safety/redact.js';
import { renderDetail } from '../../output/render.js';
import { FIELDS, MODE_FIELD, answerValidator, ask, type AskField, type TestDefaults } from './ask.js';
import { getPath, setPath, type ApiMajor } from './body.js';
import type { OrderSchema } from './check.js';
import type { JsonObject } from './read-json.js';

function shown(field: AskField, value: unknown): string {
  if (field.path === 'card_details.number') return maskCardNumber(value);
  if (field.path === 'card_details.cvv') return '***';
  return String(value);
}

/** The fields of the body a person can see and change here, in the order they are asked. */
function present(body: JsonObject): AskField[] {
  return [MODE_FIELD, ...FIELDS].filter((f) => {
    const v = getPath(body, f.path);
    return v !== undefined && v !== null && typeof v !== 'object';
  });
}

export function reviewText(body: JsonObject): string {
  return renderDetail([{ title: 'Review the order', rows: present(body).map((f) => [f.path, shown(f, getPath(body, f.path))]) }]);
}

const BACK = '(back to the review)';

/** What only an S2S order carries: dropped when the order becomes hosted (the checkout page asks). */
const S2S_ONLY = ['upi_flow_type', 'vpa', 'upi_app_name', 'card_details'];

/**
 * Resolves when the person chooses to send; throws (exit 2, nothing sent) when they cancel.
 * Editing (issue 22 item 8) offers every field shown, collection_mode included, and a way back;
 * the field's value is the default (a hidden one is kept on Enter). A new collection_mode drops
 * what only the old one used and asks for what the new one needs.
 */
export async function reviewOrder(ctx: Context, schema: OrderSchema, body: JsonObject, major: ApiMajor, opts: { sandbox?: boolean; test?: TestDefaults } = {}): Promise<void> {
  const prompter = await ctx.loadPrompter();
  for (;;) {
    ctx.io.err(`\n${reviewText(body)}`);
    const choice = await prompter.select({
      message: 'Send this order?',
      choices: [
        { name: 'Send it', value: 'send' },
        { name: 'Edit a field', value: 'edit' },
        { name: 'Cancel (nothing is sent)', value: 'cancel' },
      ],
      default: 'send',
    });
    if (choice === 'send') return;
    if (choice === 'cancel') throw new UsageError('cancelled: nothing was sent', { code: 'CANCELLED' });
    const fields = present(body);
    const path = await prompter.select({
      message: 'Which field?',
      choices: [{ name: BACK, value: BACK }, ...fields.map((f) => ({ name: `${f.path}  ${shown(f, getPath(body, f.path))}`, value: f.path }))],
      default: BACK,
    });
    const field = fields.find((f) => f.path === path);
    if (!field) continue;
    const current = getPath(body, path);
    const hidden = field.kind === 'password';
    const check = field === MODE_FIELD ? () => true as const : answerValidator(schema, body, field);
    const answer = await ask(prompter, field, body, major, (text) => (hidden && text === '' ? true : check(text)), {
      current: hidden ? undefined : String(current),
      keepHint: hidden,
    });
    if (hidden && answer === '') continue; // Enter keeps a hidden value
    setPath(body, path, (field.clean ?? ((v: string) => v.trim()))(answer));
    if (field === MODE_FIELD && answer !== current) {
      if (answer === 'hosted_payment') for (const p of S2S_ONLY) delete body[p];
      const { askMissing } = await import('./ask.js');
      await askMissing(ctx, schema, body, major, { sandbox: opts.sandbox, test: opts.test });
    }
  }
}
