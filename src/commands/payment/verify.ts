// pgw payment verify <payment_id> --field code=value … --document code=<file> … --waive code=<reason>
// [--no-finalize] [--dry-run]: answer a payment's compliance checklist (vendor 11.2). Everything
// is checked before anything is sent, every problem at once (exit 2): the codes, each value by
// the gateway's own rule (dates, PIN, email, phone, enums, amounts), each file's type and size;
// then, read from the payment (verify-checks.ts), its state, its checklist and the purpose code.
// Only then is each file uploaded (11.2.3, one immutable ref each) and one submit carries the
// fields, the refs and the waivers (11.2.2). --dry-run shows every request without file bytes.
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { BOOLEAN_FIELDS, FIELD_CODES, VERIFICATION_DOCUMENT_TYPES, VERIFICATION_MAX_BYTES, checkFieldValue, verificationFileProblem } from '../../api/schemas/verification.js';
import type { ApiRequest, FormField } from '../../api/types.js';
import { GatewayError, UsageError, ValidationError } from '../../errors.js';
import type { FileDigests } from '../../files/digests.js';
import { confirmProduction } from '../../rails.js';
import { emit, renderDetail } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';
import { idArgument } from '../parse.js';
import { reviewSource } from './review.js';
import { verifyCommand, type Requirements } from './verification.js';
import { checklistProblems, enabledPurposeCodes, enabledSentence, refuseState } from './verify-checks.js';

export interface PaymentVerifyOptions {
  paymentId: string;
  field?: string[];
  document?: string[];
  waive?: string[];
  finalize: boolean;
  dryRun: boolean;
  /** pgw mcp: each file's bytes as previewed (recorded by the preview, checked by the send). */
  digests?: FileDigests;
}

interface SubmitAnswer {
  payment_id?: string;
  status?: string;
  outstanding?: string[];
  refusal?: unknown;
}

/** `code=value` (the value may hold `=`); the flag named in the refusal. */
function pair(flag: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${text}: expected code=value`);
  return [text.slice(0, at).trim(), text.slice(at + 1)];
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
};

/** A file, read only once its name and size pass (a 2 GB file is never read). */
async function readFile(code: string, path: string): Promise<{ filename: string; data: Buffer }> {
  const flag = `--document ${code}=${path}`;
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new UsageError(`${flag}: not a regular file`);
    size = s.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flag}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const filename = basename(path);
  const early = verificationFileProblem({ filename, size });
  if (early) throw new UsageError(`${flag}: ${early}`);
  const handle = await open(path, 'r');
  try {
    const data = await handle.readFile();
    const why = data.length > VERIFICATION_MAX_BYTES ? 'larger than 10 MB' : verificationFileProblem({ filename, size: data.length, content: data });
    if (why) throw new UsageError(`${flag}: ${why}`);
    return { filename, data };
  } finally {
    await handle.close();
  }
}

/**
 * The submit body's value: declarations are booleans (vendor 11.2.2), everything else the text
 * given, checked by the gateway's own rule (the sandbox's, shared). A reason when it would be refused.
 */
function fieldValue(code: string, raw: string): { value: string | boolean } | { problem: string } {
  if (BOOLEAN_FIELDS.includes(code)) {
    const v = raw.trim().toLowerCase();
    if (v === 'true' || v === 'yes') return { value: true };
    if (v === 'false' || v === 'no') return { problem: `${code} is a declaration: only true is accepted (the details must be declared true)` };
    return { problem: `${code} is a declaration: true or false` };
  }
  const checked = checkFieldValue(code, raw);
  if (!checked.ok) return { problem: `${code}=${raw}: ${checked.reason}` };
  // Sent as typed (the gateway normalises), but for the classification, upper-cased as the API shows it.
  return { value: code === 'business_model' || code === 'purpose_code' ? String(checked.value) : raw };
}

export async function runPaymentVerify(ctx: Context, opts: PaymentVerifyOptions): Promise<void> {
  const id = idArgument('payment_id', opts.paymentId);
  const problems: { path: string; message: string }[] = [];
  const fields: Record<string, string | boolean> = {};
  const seen = new Set<string>();
  const once = (flag: string, code: string) => {
    if (seen.has(code)) problems.push({ path: flag, message: `${code} is given more than once` });
    seen.add(code);
  };
  for (const f of opts.field ?? []) {
    const [code, raw] = pair('--field', f);
    once('--field', code);
    if ((VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(code) && !(FIELD_CODES as readonly string[]).includes(code)) {
      problems.push({ path: '--field', message: `${code} is a document: --document ${code}=<file>` });
    } else if (!(FIELD_CODES as readonly string[]).includes(code)) problems.push({ path: '--field', message: `${code} is not a checklist field (pgw payment verification ${id} lists them)` });
    else if (raw.trim() === '') problems.push({ path: '--field', message: `${code}: the value is empty (leave the flag out instead)` });
    else {
      const v = fieldValue(code, raw);
      if ('problem' in v) problems.push({ path: `--field ${code}`, message: v.problem });
      else fields[code] = v.value;
    }
  }
  const docs: { code: string; path: string }[] = [];
  for (const d of opts.document ?? []) {
    const [code, path] = pair('--document', d);
    once('--document', code);
    if (!(VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(code)) problems.push({ path: '--document', message: `${code} is not a document type: ${VERIFICATION_DOCUMENT_TYPES.join(', ')}` });
    else docs.push({ code, path });
  }
  const waivers: { code: string; waiver_reason: string }[] = [];
  for (const w of opts.waive ?? []) {
    const [code, reason] = pair('--waive', w);
    once('--waive', code);
    if (!(VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(code)) problems.push({ path: '--waive', message: `${code} is not a document type` });
    else if (reason.trim() === '') problems.push({ path: '--waive', message: `${code}: give the reason (--waive ${code}=<reason>)` });
    else waivers.push({ code, waiver_reason: reason.trim() });
  }
  // Every file is read and checked before the first request; every problem is named at once.
  const files: { code: string; filename: string; data: Buffer }[] = [];
  for (const d of docs) {
    let file: { filename: string; data: Buffer };
    try {
      file = await readFile(d.code, d.path);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      problems.push({ path: `--document ${d.code}`, message: err.message.replace(/^--document [^:]*: /, '') });
      continue;
    }
    // Under pgw mcp: the file is the one the person approved (issue 43), byte for byte.
    opts.digests?.check(d.path, file.data);
    files.push({ code: d.code, ...file });
  }
  if (problems.length) throw new ValidationError(problems, 'nothing was sent');
  if (!Object.keys(fields).length && !docs.length && !waivers.length && opts.finalize) {
    // An empty submit still files a complete set: allowed, but say what it does.
    ctx.log('no --field, --document or --waive: submitting what is staged (finalize)');
  }

  const uploadReq = (f: (typeof files)[number]): ApiRequest => {
    const ext = f.filename.toLowerCase().split('.').pop()!;
    const form: FormField[] = [
      { name: 'type', value: f.code },
      { name: 'file', filename: f.filename, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', data: f.data },
    ];
    return { method: 'POST', path: `/pg/payments/${id}/documents/`, form };
  };
  const submitReq = (refs: Record<string, string>): ApiRequest => ({
    method: 'POST',
    path: `/pg/payments/${id}/verification/`,
    body: {
      ...(Object.keys(fields).length ? { fields } : {}),
      ...(files.length || waivers.length ? { documents: [...files.map((f) => ({ code: f.code, ref: refs[f.code]! })), ...waivers] } : {}),
      ...(opts.finalize ? {} : { finalize: false }),
    },
  });

  const profile = await ctx.profile();
  const api = await ctx.api();
  // The payment as it stands, before any upload (reads only, a dry run too).
  const sandbox = reviewSource(profile) !== undefined;
  const r = await api.request<Requirements>({ method: 'GET', path: `/pg/payments/${id}/verification/` });
  refuseState(id, r, sandbox);
  const against = checklistProblems(r, { fields: Object.keys(fields), documents: docs.map((d) => d.code), waived: waivers.map((w) => w.code) });
  const enabled = sandbox ? await enabledPurposeCodes(api) : undefined;
  const code = typeof fields.purpose_code === 'string' ? fields.purpose_code : undefined;
  if (code !== undefined && enabled !== undefined && !enabled.includes(code) && !against.some((p) => p.message.startsWith('purpose_code'))) {
    against.push({ path: '--field purpose_code', message: `purpose_code ${code} is not enabled for this account: ${enabledSentence(enabled, code)}` });
  }
  if (against.length) throw new ValidationError(against, 'nothing was sent');
  if (opts.dryRun) {
    // The refs are not known before the uploads: the submit shows where each goes.
    const placeholder = Object.fromEntries(files.map((f) => [f.code, `<ref of ${f.filename}>`]));
    const previews = [...files.map((f) => api.preview(uploadReq(f))), api.preview(submitReq(placeholder))];
    await emit(ctx.io, ctx.output, previews, () => {
      const blocks = previews.map((p) => [`${p.method} ${p.url}`, ...Object.entries(p.headers).map(([k, v]) => `${k}: ${v}`), ...(p.body === undefined ? [] : ['', JSON.stringify(p.body, null, 2)])].join('\n'));
      ctx.io.out(`${blocks.join('\n\n')}\n`);
      ctx.io.err('dry run: nothing was sent\n');
    });
    return;
  }
  await confirmProduction(ctx, profile, `submit verification details for payment ${id}`);
  const refs: Record<string, string> = {};
  for (const f of files) {
    const up = await api.request<{ ref: string }>(uploadReq(f));
    refs[f.code] = up.ref;
    ctx.log(`uploaded ${f.code}: ${f.filename} (${f.data.length} bytes), ref ${up.ref}`);
  }
  let answer: SubmitAnswer;
  try {
    answer = await api.request<SubmitAnswer>(submitReq(refs));
  } catch (err) {
    // vendor 11.2.2 rule 2: a purpose code not enabled (40359). Where pgw can know them, the ones that are.
    const notEnabled = err instanceof GatewayError && String(err.code) === '40359' && /not enabled/.test(String(err.details?.purpose_code ?? ''));
    const codes = notEnabled ? await enabledPurposeCodes(api) : undefined;
    if (notEnabled && codes !== undefined && err instanceof GatewayError) {
      throw new GatewayError(err.message, { code: err.code, details: err.details, status: err.status, suggestion: enabledSentence(codes, code) });
    }
    throw err;
  }
  await emit(ctx.io, ctx.output, answer, () => {
    const text = (v: unknown) => (typeof v === 'string' ? plainText(v) : undefined);
    const left = Array.isArray(answer?.outstanding) ? answer.outstanding.map((c) => text(c)).filter((c) => c) : [];
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['payment_id', text(answer?.payment_id) ?? id],
            ['status', text(answer?.status)],
            ['outstanding', left.length ? left.join(', ') : 'nothing'],
            ...Object.entries(refs).map(([code, ref]): [string, string] => [`ref ${code}`, ref]),
          ],
        },
      ]),
    );
    // What comes next, for every answer (issue 42 item 4): the reason, then the command alone (it pastes).
    if (answer?.status === 'complete') ctx.log(`staged, not filed (--no-finalize); this files it for review:\nnext: pgw payment verify ${id}`);
    if (answer?.status === 'incomplete') ctx.log(`still owed: ${left.join(', ')}\nnext: ${verifyCommand(id, r, left.filter((c): c is string => c !== undefined))}`);
    if (answer?.status === 'in_review') {
      ctx.log(
        sandbox
          ? `filed: in review. On pgw's sandbox the reviewer's answer is yours to give (ACTION_REQUIRED --message '<why>' sends it back):\nnext: pgw sandbox verification ${id} VERIFIED`
          : `filed: in review; the reviewer answers with VERIFICATION_NEEDED (pgw listen shows it):\nnext: pgw payment verification ${id}`,
      );
    }
    if (answer?.status === 'action_required') ctx.log(`the gateway refused the set (refusal says why):\nnext: pgw payment verification ${id}`);
  });
}
