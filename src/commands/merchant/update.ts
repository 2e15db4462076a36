// pgw merchant update <merchant_id>: PATCH /partners/merchants/{id}/ (spec 4.10) with only the
// fields to change, from --file and/or --set path=value (--set wins over the file for the same
// field). Each field is checked by the same rules as create before anything is sent.
import type { Context } from '../../context.js';
import type { ApiRequest } from '../../api/types.js';
import type { Problem } from '../../api/schemas/common.js';
import { GatewayError, PgwError, UsageError, ValidationError } from '../../errors.js';
import { confirmProduction, isOwnSandbox, isProduction } from '../../rails.js';
import { plainText } from '../../safety/terminal-text.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { readSource } from './input.js';
import { jsonReason, parseJsonText } from '../../safety/json-reason.js';
import { FIELDS, fieldAt, isContactPath, parseFieldText, suggestField } from './fields.js';
import { checkUpdate } from './validate.js';
import { merchantPath, partnerRequest } from './partner.js';
import { appliedChanges, changesOf, diffLines, shown } from './changes.js';
import type { MerchantDetails } from './get.js';

export interface MerchantUpdateOptions {
  id: string;
  file?: string;
  set?: string[];
  dryRun?: boolean;
}

type Body = Record<string, unknown>;

/** `company_details.website=https://...`: the field must exist; the value is parsed by its kind. */
export function parseSet(arg: string, body: Body, problems: Problem[]): void {
  const eq = arg.indexOf('=');
  if (eq <= 0) {
    problems.push({ path: arg, message: '--set takes path=value, e.g. company_details.website=https://acme.example' });
    return;
  }
  const path = arg.slice(0, eq).trim();
  if (isContactPath(path)) {
    // company_details.email / phone_number: text as given; validate.ts checks it with the rest.
    const company = (body.company_details ??= {});
    if (company !== null && typeof company === 'object' && !Array.isArray(company)) (company as Body)[path.slice(path.indexOf('.') + 1)] = arg.slice(eq + 1).trim();
    return;
  }
  const field = fieldAt(path);
  if (!field) {
    const [object = '', key = ''] = path.includes('.') ? path.split('.', 2) : ['', path];
    const near = suggestField(object, key);
    const bare = FIELDS.find((f) => f.key === path);
    const hint = near ? `${object}.${near}` : bare?.path;
    problems.push({ path, message: `unknown field${hint ? ` (did you mean ${hint}?)` : ': use company_details.<field> or settlement_details.<field>'}` });
    return;
  }
  const parsed = parseFieldText(field, arg.slice(eq + 1));
  if ('error' in parsed) {
    problems.push({ path, message: parsed.error });
    return;
  }
  const current = (body[field.object] ??= {});
  // The file's own value of the object, if not an object, is left for the schema to refuse.
  if (current !== null && typeof current === 'object' && !Array.isArray(current)) (current as Body)[field.key] = parsed.value;
}

async function fileBody(ctx: Context, source: string): Promise<Body> {
  const { name, text } = await readSource(source, ctx.io.stdin);
  if (text.trim() === '') throw new UsageError(`--file: ${name} is empty`);
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (err) {
    throw new UsageError(`--file: ${name} is not valid JSON: ${jsonReason((err as Error).message, text)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`--file: ${name} must hold one JSON object with company_details and/or settlement_details`);
  }
  return value as Body;
}

function fieldCount(body: Body): number {
  return Object.values(body).reduce<number>((n, v) => n + (v !== null && typeof v === 'object' ? Object.keys(v).length : 1), 0);
}

/** vendor 7.4: the gateway's refusal of an update outside PENDING and CHANGES_REQUESTED. */
function refusedForKyc(err: PgwError): boolean {
  const onKyc = err.details?.kyc_status;
  return /can be updated only while/i.test(`${err.message} ${typeof onKyc === 'string' ? onKyc : ''}`);
}

/**
 * An update refused for the sub-merchant's kyc_status: on pgw's own sandbox the hint names the
 * control that moves it back (issue 33 item 3), with the real ID; elsewhere only the gateway's
 * review does, and the error is left as it is.
 */
function kycHint(err: unknown, id: string, ownSandbox: boolean): unknown {
  if (!ownSandbox || !(err instanceof GatewayError) || !refusedForKyc(err)) return err;
  return new GatewayError(err.message, {
    code: err.code,
    details: err.details,
    status: err.status,
    suggestion: `on the sandbox, ask for changes first: pgw sandbox merchant kyc ${id} CHANGES_REQUESTED; then run the update again`,
  });
}

export async function runMerchantUpdate(ctx: Context, opts: MerchantUpdateOptions): Promise<void> {
  const id = idArgument('merchant_id', opts.id);
  void ctx.output; // a bad -o is refused before anything is sent
  if (opts.file === undefined && (opts.set ?? []).length === 0) {
    throw new UsageError('nothing to update: give the fields with --file <path|-> and/or --set path=value', {
      suggestion: `pgw merchant update ${id} --set company_details.website=https://acme.example`,
    });
  }
  const body: Body = opts.file === undefined ? {} : await fileBody(ctx, opts.file);
  const problems: Problem[] = [];
  for (const arg of opts.set ?? []) parseSet(arg, body, problems);
  if (fieldCount(body) === 0) {
    if (problems.length > 0) throw new ValidationError(problems, 'invalid update, nothing was sent');
    throw new UsageError('nothing to update: no field of company_details or settlement_details was given');
  }
  const checked = checkUpdate(body);
  if (!checked.ok) problems.push(...checked.problems);
  if (problems.length > 0 || !checked.ok) throw new ValidationError(problems, 'invalid update, nothing was sent');

  const profile = await ctx.profile();
  const api = await ctx.api();
  const req: ApiRequest = { method: 'PATCH', path: merchantPath(id), body: checked.data };
  if (opts.dryRun) {
    await printDryRun(ctx.io, ctx.output, api.preview(req));
    return;
  }
  const changes = changesOf(checked.data as Body);
  // A production change is confirmed knowing what it changes: the sub-merchant is read first and
  // each field shown current → new (only when a person is asked: --yes and scripts skip the read).
  if (isProduction(profile) && !ctx.yes && ctx.io.canPrompt) {
    const current = await partnerRequest<MerchantDetails>(api, { method: 'GET', path: merchantPath(id) });
    ctx.io.err(`sub-merchant ${id}: what will change\n${diffLines(current, changes).map((l) => plainText(l)).join('\n')}\n`);
  }
  await confirmProduction(ctx, profile, `merchant update ${id}`);
  const result = await partnerRequest<{ merchant_id: string; updated_fields: string[] }>(api, req).catch((err: unknown) => {
    throw kycHint(err, id, isOwnSandbox(profile));
  });
  // JSON is the gateway's data unchanged; a person sees the new value of each field changed.
  await emit(ctx.io, ctx.output, result, () => {
    const applied = appliedChanges(changes, result.updated_fields);
    const sections: Parameters<typeof renderDetail>[0] = [
      { rows: [['merchant_id', result.merchant_id ?? id], ['updated_fields', (result.updated_fields ?? []).join(', ')]] },
    ];
    if (applied.length > 0) sections.push({ title: 'Now', rows: applied.map((c) => [c.path, shown(c.key, c.value)]) });
    ctx.io.out(renderDetail(sections));
  });
}
