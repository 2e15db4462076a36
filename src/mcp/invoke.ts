// One tool call: the verb's runner on a context of its own whose output is JSON, read back as the
// tool's result. The data is what `--json` prints (it went through the same output guard), once
// as structuredContent and once as its JSON text (the protocol's backwards-compatible form),
// after a one-line summary. An error is a result with isError, every problem named by the
// argument path the agent sent, the gateway's code and a hint written for a tool call.
import { Readable, Writable } from 'node:stream';
import type * as z from 'zod';
import type { Context } from '../context.js';
import { ExitCode, PgwError, ValidationError, detailLines, exitCodeFor } from '../errors.js';
import { errorMap, problemsFrom, type Problem } from '../api/schemas/common.js';
import { setPath } from '../commands/order/body.js';
import { inputSchemaOf } from './schema.js';
import { unknownKeyProblems } from '../commands/order/keys.js';
import { FileDigests } from '../files/digests.js';
import type { ConfirmationTokens } from './confirm.js';
import { summaryOf } from './summary.js';
import { forToolCall } from './wording.js';
import { TOKEN_ARGUMENT, isTwoStep, type Gateway, type RunMode, type ToolSpec } from './tool.js';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface CallSetting {
  gateway: Gateway;
  tokens: ConfirmationTokens;
  /** Every tool this server offers: a hint that names a command names its tool instead. */
  offered: readonly ToolSpec[];
}

export { TOKEN_ARGUMENT };

/** A run's result and the exit code the command line would have given. */
interface Outcome {
  result: ToolResult;
  exitCode: number;
}

export async function callTool(parent: Context, tool: ToolSpec, args: unknown, setting: CallSetting): Promise<ToolResult> {
  const given: Record<string, unknown> = args !== null && typeof args === 'object' && !Array.isArray(args) ? { ...(args as Record<string, unknown>) } : {};
  const token = given[TOKEN_ARGUMENT];
  delete given[TOKEN_ARGUMENT];
  const parsed = tool.input.safeParse(given, { error: argumentWording });
  const unknown = unknownKeyProblems(given, tool.input, `the arguments of ${tool.name}`);
  if (!parsed.success || unknown.length > 0) return errorResult(parent, tool, argumentError(tool, [...unknown, ...(parsed.success ? [] : missingInside(tool, given, problemsFrom(parsed.error)))]), setting);
  const input = parsed.data;

  if (!isTwoStep(tool, setting.gateway)) {
    const fixed = await fix(parent, tool, input, setting);
    if ('result' in fixed) return fixed.result;
    return (await run(parent, tool, fixed.input, { dryRun: false }, setting, fixed.notes)).result;
  }
  // The token is bound to the arguments as read (1500 and "1500.00" are one request), not as typed.
  if (token === undefined) return preview(parent, tool, input, setting);
  let approved;
  try {
    if (typeof token !== 'string') throw new ValidationError([{ path: TOKEN_ARGUMENT, message: 'must be the string a preview returned' }]);
    approved = setting.tokens.check(token, tool.name, input);
  } catch (err) {
    return errorResult(parent, tool, err, setting);
  }
  // Exactly what was previewed: its generated values, and each file's bytes or a refusal.
  const sent = await run(parent, tool, approved.input, { dryRun: false, digests: new FileDigests(approved.digests) }, setting);
  // A refusal before anything was sent (exit 2 or 6) leaves the token for the request it holds.
  if (sent.exitCode !== ExitCode.usage && sent.exitCode !== ExitCode.refused) setting.tokens.spend(token);
  return sent.result;
}

/** The tool's generated values fixed (reference_id, an expiry); a refusal is an error result. */
async function fix(parent: Context, tool: ToolSpec, input: unknown, setting: CallSetting): Promise<{ input: unknown; notes: string[] } | { result: ToolResult }> {
  if (!tool.fix) return { input, notes: [] };
  const ctx = childContext(parent, undefined);
  try {
    const fixed = await tool.fix(ctx, input as never);
    return { input: fixed.input, notes: fixed.notes ?? [] };
  } catch (err) {
    return { result: errorResult(ctx, tool, err, setting) };
  } finally {
    await ctx.close();
  }
}

/** The first call of a production write: the dry run (and the tool's own preview), and a token. */
async function preview(parent: Context, tool: ToolSpec, input: unknown, setting: CallSetting): Promise<ToolResult> {
  const fixed = await fix(parent, tool, input, setting);
  if ('result' in fixed) return fixed.result;
  const digests = new FileDigests();
  const dry = await run(parent, tool, fixed.input, { dryRun: true, digests }, setting, fixed.notes);
  if (dry.result.isError) return dry.result;
  let more: Record<string, unknown> = {};
  if (tool.preview) {
    const ctx = childContext(parent, undefined);
    try {
      more = ctx.io.clean(await tool.preview(ctx, fixed.input as never));
    } catch (err) {
      return errorResult(parent, tool, err, setting);
    } finally {
      await ctx.close();
    }
  }
  const { token, expiresAt } = setting.tokens.issue(tool.name, input, { input: fixed.input, digests: { ...digests.seen } });
  const files = Object.entries(digests.seen).map(([path, sha256]) => ({ path, sha256 }));
  const structured = {
    preview: { request: dry.result.structuredContent, ...(files.length > 0 ? { files } : {}), ...more },
    [TOKEN_ARGUMENT]: token,
    expires_at: expiresAt.toISOString(),
  };
  const filled = fixed.notes.length > 0 ? ` (${fixed.notes.join('; ')}: sent as shown)` : '';
  const text = `Nothing was sent: ${tool.name} on production is two-step${filled}. Show the preview to the person; with their agreement call ${tool.name} again with the same arguments and "${TOKEN_ARGUMENT}" before ${expiresAt.toISOString()} (once).`;
  return { content: [{ type: 'text', text }, { type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

async function run(parent: Context, tool: ToolSpec, input: unknown, mode: RunMode, setting: CallSetting, notes: string[] = []): Promise<Outcome> {
  const stdinBody = tool.stdin?.(input as never);
  const stdout = new Capture();
  const stderr = new Capture();
  const ctx = childContext(parent, stdinBody, stdout, stderr);
  let data: unknown;
  const said = [...notes];
  try {
    await tool.run(ctx, input as never, mode);
    data = readJson(stdout.text);
    said.push(...stderrNotes(stderr.text));
    if (tool.result && !mode.dryRun) {
      const shaped = await tool.result(ctx, data);
      data = shaped.data;
      said.push(...(shaped.notes ?? []));
    }
  } catch (err) {
    return { result: errorResult(ctx, tool, err, setting, stderr.text), exitCode: exitCodeFor(err) };
  } finally {
    await ctx.close();
  }
  const structured = structuredOf(data);
  const summary = summaryOf(tool, data, mode.dryRun, said.map((n) => forToolCall(n, tool, setting.offered)));
  return { result: { content: [{ type: 'text', text: summary }, { type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }, exitCode: ExitCode.ok };
}

/** What the command said on stderr, line by line; a dry run's "nothing was sent" is the summary's. */
function stderrNotes(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^dry run: nothing was sent/.test(l));
}

/**
 * A context as the command line's with `--json --no-input --yes` (the agent's call is the
 * confirmation; production's is the token) and no colour. Its streams are buffers: nothing of a
 * tool reaches the process's stdout, which carries the protocol.
 */
function childContext(parent: Context, stdinBody: unknown, stdout = new Capture(), stderr = new Capture()): Context {
  const stdin = Readable.from(stdinBody === undefined ? [] : [JSON.stringify(stdinBody)]) as Readable & { isTTY?: boolean };
  stdin.isTTY = false;
  return parent.fork(
    { stdin, stdout, stderr, env: { ...parent.env, PGW_NO_INPUT: '1', PGW_OUTPUT: 'json' } },
    // -v / PGW_DEBUG=1 stay: each request's log (secrets redacted) goes to the server's stderr.
    { ...parent.globals, json: true, output: undefined, query: undefined, input: false, yes: true, color: false, wide: false },
  );
}

/** A stream that keeps what is written, never a terminal. */
class Capture extends Writable {
  text = '';
  readonly isTTY = false;
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : String(chunk);
    done();
  }
  override write(chunk: unknown, ...rest: unknown[]): boolean {
    // Synchronously, like a file: the runner's last line is here when it returns.
    this.text += typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }
}

function readJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  try {
    return JSON.parse(trimmed);
  } catch {
    return { output: trimmed };
  }
}

/** structuredContent is an object: a list comes as {items}, anything else as {value}. */
function structuredOf(data: unknown): Record<string, unknown> {
  if (Array.isArray(data)) return { items: data };
  if (data !== null && typeof data === 'object') return data as Record<string, unknown>;
  return data === null ? {} : { value: data };
}

/** The shared wording ("required", "must be a string"), and an enum's choices named. */
const argumentWording: z.core.$ZodErrorMap = (iss) => {
  if (iss.code === 'invalid_value' && iss.input !== undefined) return `must be one of ${iss.values.map(String).join(', ')}`;
  return errorMap(iss);
};

/** The JSON Schema node at a dotted path of the tool's input (through nullable unions). */
function nodeAt(schema: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let node: Record<string, unknown> | undefined = schema;
  for (const key of path.split('.')) {
    const options: (Record<string, unknown> | undefined)[] = [node, ...(((node?.anyOf as unknown[]) ?? []) as Record<string, unknown>[])];
    const object = options.find((n) => n?.type === 'object');
    node = (object?.properties as Record<string, Record<string, unknown>> | undefined)?.[key];
  }
  return node;
}

/**
 * A missing object named by what it lacks (`buyer.address.line_1: required` …, not
 * `buyer.address: required`), as the command line's order check does: the agent hears of every
 * field its next call needs at once.
 */
function missingInside(tool: ToolSpec, given: Record<string, unknown>, problems: Problem[]): Problem[] {
  const schema = inputSchemaOf(tool, false);
  const probe = structuredClone(given);
  let current = problems;
  for (let round = 0; round < 4; round++) {
    const open = current.filter((p) => p.message === 'required' && p.path !== '' && nodeAt(schema, p.path)?.type === 'object');
    if (open.length === 0) break;
    for (const p of open) setPath(probe, p.path, {});
    const again = tool.input.safeParse(probe, { error: argumentWording });
    if (again.success) break;
    current = problemsFrom(again.error);
  }
  // A rule of the shared schema about a field this tool leaves out (card_details) is not the agent's.
  return current.filter((p) => p.path === '' || Object.hasOwn(tool.input.shape, p.path.split('.')[0]!));
}

/** Every problem of the arguments at once, each at its path as sent (`buyer.address.line_1`). */
function argumentError(tool: ToolSpec, problems: { path: string; message: string }[]): ValidationError {
  const error = new ValidationError(problems, 'invalid arguments, nothing was sent');
  const hint = `correct ${problems.length === 1 ? 'it' : 'them'} and call ${tool.name} again: its input schema marks what is required at each level, and its description states the conditional rules`;
  return Object.assign(error, { suggestion: hint });
}

/** Through the guard of the context that ran (the secrets and cards it learnt), as every output. */
function errorResult(ctx: Context, tool: ToolSpec, err: unknown, setting: CallSetting, notes = ''): ToolResult {
  const known = err instanceof PgwError;
  const word = (text: string) => forToolCall(text, tool, setting.offered);
  const message = word(known ? err.message : err instanceof Error ? err.message : String(err));
  const error: Record<string, unknown> = {
    code: known ? (err.code ?? null) : 'INTERNAL',
    message,
    details: known ? (err.details ?? null) : null,
    status: known ? (err.status ?? null) : null,
    hint: known && err.suggestion ? word(err.suggestion) : null,
    exit_code: exitCodeFor(err),
  };
  if (err instanceof ValidationError) error.problems = err.problems.map((p) => ({ path: word(p.path), message: word(p.message) }));
  // The lines the command line prints for it (errors.ts errorLines), in the tool's words.
  const lines = [`error: ${message}`];
  if (Array.isArray(error.problems) && error.problems.length > 1) for (const p of error.problems as { path: string; message: string }[]) lines.push(`  ${p.path ? `${p.path}: ` : ''}${p.message}`);
  else if (known && !(err instanceof ValidationError) && err.details) lines.push(...detailLines(err.details).map((l) => `  ${word(l)}`));
  if (error.hint) lines.push(`hint: ${String(error.hint)}`);
  const clean = <T>(v: T): T => ctx.guard.data(v);
  const structured = clean({ error });
  const note = stderrNotes(notes).map(word);
  return { isError: true, content: [{ type: 'text', text: clean([...lines, ...note].join('\n')) }], structuredContent: structured };
}
