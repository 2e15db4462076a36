// One tool call: the verb's runner on a context of its own whose output is JSON, read back as the
// tool's result. The data is what `--json` prints (it went through the same output guard); an
// error is a result with isError, the gateway's code and the hint the command line prints.
import { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { PgwError, ValidationError, errorLines, exitCodeFor } from '../errors.js';
import type { ConfirmationTokens } from './confirm.js';
import { summaryOf } from './summary.js';
import { isTwoStep, type Gateway, type ToolSpec } from './tool.js';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface CallSetting {
  gateway: Gateway;
  tokens: ConfirmationTokens;
}

/** The argument a two-step write takes on its second call. */
export const TOKEN_ARGUMENT = 'confirmation_token';

export async function callTool(parent: Context, tool: ToolSpec, args: unknown, setting: CallSetting): Promise<ToolResult> {
  const given: Record<string, unknown> = args !== null && typeof args === 'object' && !Array.isArray(args) ? { ...(args as Record<string, unknown>) } : {};
  const token = given[TOKEN_ARGUMENT];
  delete given[TOKEN_ARGUMENT];
  const parsed = tool.input.safeParse(given);
  if (!parsed.success) return errorResult(parent, tool, argumentError(parsed.error));
  const input = parsed.data;

  if (!isTwoStep(tool, setting.gateway)) return run(parent, tool, input, false);
  // The token is bound to the arguments as read (1500 and "1500.00" are one request), not as typed.
  if (token === undefined) return preview(parent, tool, input, setting);
  try {
    if (typeof token !== 'string') throw new ValidationError([{ path: TOKEN_ARGUMENT, message: 'must be the string a preview returned' }]);
    setting.tokens.redeem(token, tool.name, input);
  } catch (err) {
    return errorResult(parent, tool, err);
  }
  return run(parent, tool, input, false);
}

/** The first call of a production write: the dry run (and the tool's own preview), and a token. */
async function preview(parent: Context, tool: ToolSpec, input: unknown, setting: CallSetting): Promise<ToolResult> {
  const dry = await run(parent, tool, input, true);
  if (dry.isError) return dry;
  let more: Record<string, unknown> = {};
  if (tool.preview) {
    const ctx = childContext(parent, undefined);
    try {
      more = ctx.io.clean(await tool.preview(ctx, input as never));
    } catch (err) {
      return errorResult(parent, tool, err);
    } finally {
      await ctx.close();
    }
  }
  const { token, expiresAt } = setting.tokens.issue(tool.name, input);
  const structured = { preview: { request: dry.structuredContent, ...more }, [TOKEN_ARGUMENT]: token, expires_at: expiresAt.toISOString() };
  const text = [
    `Nothing was sent: ${tool.name} on production is two-step.`,
    `To send exactly this request, call ${tool.name} again with the same arguments and "${TOKEN_ARGUMENT}": "${token}" before ${expiresAt.toISOString()} (once).`,
  ].join('\n');
  return { content: [{ type: 'text', text }, { type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

async function run(parent: Context, tool: ToolSpec, input: unknown, dryRun: boolean): Promise<ToolResult> {
  const stdinBody = tool.stdin?.(input as never);
  const stdout = new Capture();
  const stderr = new Capture();
  const ctx = childContext(parent, stdinBody, stdout, stderr);
  try {
    await tool.run(ctx, input as never, { dryRun });
  } catch (err) {
    return errorResult(ctx, tool, err, stderr.text);
  } finally {
    await ctx.close();
  }
  const data = readJson(stdout.text);
  const structured = structuredOf(data);
  const notes = stderr.text.trim();
  const text = [summaryOf(tool, data, dryRun), ...(notes ? [notes] : [])].join('\n');
  return { content: [{ type: 'text', text }, { type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
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

function argumentError(error: z.ZodError): ValidationError {
  const problems = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return new ValidationError(problems, 'invalid arguments, nothing was sent');
}

/**
 * The command line's flag names in a message become the tool's argument names (`--reference-id`
 * → `reference_id`) when the tool has that argument: the agent reads what it can change.
 */
export function inArgumentNames(text: string, tool: ToolSpec): string {
  const keys = new Set(Object.keys(tool.input.shape));
  return text.replace(/--([a-z][a-z-]*)/g, (flag, name: string) => {
    const key = name.replace(/-/g, '_');
    return keys.has(key) ? key : flag;
  });
}

/** Through the guard of the context that ran (the secrets and cards it learnt), as every output. */
function errorResult(ctx: Context, tool: ToolSpec, err: unknown, notes = ''): ToolResult {
  const known = err instanceof PgwError;
  const message = inArgumentNames(known ? err.message : err instanceof Error ? err.message : String(err), tool);
  const error: Record<string, unknown> = {
    code: known ? (err.code ?? null) : 'INTERNAL',
    message,
    details: known ? (err.details ?? null) : null,
    status: known ? (err.status ?? null) : null,
    hint: known ? (err.suggestion ?? null) : null,
    exit_code: exitCodeFor(err),
  };
  if (err instanceof ValidationError) error.problems = err.problems.map((p) => ({ ...p, path: inArgumentNames(p.path, tool) }));
  // The lines the command line prints for it (errors.ts errorLines), in the tool's argument names.
  const lines = known ? errorLines(err, (text) => inArgumentNames(text, tool)) : [`error: ${message}`];
  const clean = <T>(v: T): T => ctx.guard.data(v);
  const structured = clean({ error });
  const note = notes.trim();
  return { isError: true, content: [{ type: 'text', text: clean([...lines, ...(note ? [note] : [])].join('\n')) }], structuredContent: structured };
}
