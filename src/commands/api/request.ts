// pgw api <METHOD> <path>: validate everything first (exit 2, nothing sent), then one request
// through ctx.api(), printing the envelope's data (or, with --dry-run, the redacted request).
import type { Context } from '../../context.js';
import type { ApiRequest, HttpMethod } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { confirmProduction, isSandboxOnlyPath, requireSandbox } from '../../rails.js';
import { jsonReason, parseJsonText } from '../../safety/json-reason.js';
import { readPath, readStdin } from '../source.js';
import { printJson } from '../../output/render.js';
import type { InStream } from '../../output/io.js';
import type { ApiFlags } from './index.js';

export interface ApiRequestOptions extends ApiFlags {
  method: string;
  path: string;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export function parseMethod(value: string): HttpMethod {
  const method = value.trim().toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`invalid method "${value}": use ${METHODS.join(', ')}`);
  return method;
}

/** A path below the base address. A full URL would silently ignore the profile: refuse it. */
export function parsePath(value: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(`invalid path "${value}": give the path below the base address, e.g. /pg/payments/PR0000000001/`, {
      suggestion: 'change the address with --base-url or the profile',
    });
  }
  if (!value.startsWith('/') || value.startsWith('//')) {
    throw new UsageError(`invalid path "${value}": it must start with a single /, e.g. /pg/payments/PR0000000001/`);
  }
  if (/\s/.test(value)) throw new UsageError(`invalid path "${value}": it may not contain spaces`);
  return value;
}

/** --query-param key=value (repeatable, repeats kept) appended to the path's own query string. */
export function withQueryParams(path: string, params: string[] = []): string {
  if (params.length === 0) return path;
  const search = new URLSearchParams();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq <= 0) throw new UsageError(`--query-param: "${param}" is not key=value`);
    search.append(param.slice(0, eq), param.slice(eq + 1));
  }
  return `${path}${path.includes('?') ? '&' : '?'}${search.toString()}`;
}

/** The body of --data: `@file.json` or `-` for stdin. Inline JSON is refused: argv shows in `ps`. */
export async function readData(source: string, stdin: InStream): Promise<unknown> {
  let text: string;
  let name: string;
  if (source === '-') {
    name = 'stdin';
    text = await readStdin(stdin);
  } else if (source.startsWith('@') && source.length > 1) {
    const file = source.slice(1);
    name = `"${file}"`;
    text = await readPath('--data', file, name);
  } else {
    // What was given is not repeated: inline JSON may hold a card number or a CVV of any length.
    throw new UsageError(`--data takes @file.json or - (stdin), not inline ${source.trimStart().startsWith('{') || source.trimStart().startsWith('[') ? 'JSON' : 'text'}`, {
      suggestion: 'write the body to a file: --data @body.json, or pipe it: ... | pgw api POST <path> --data -',
    });
  }
  if (text.trim() === '') throw new UsageError(`--data: ${name} is empty`);
  try {
    return parseJsonText(text);
  } catch (err) {
    throw new UsageError(`--data: ${name} is not valid JSON: ${jsonReason((err as Error).message, text)}`);
  }
}

export async function buildApiRequest(opts: ApiRequestOptions, stdin: InStream): Promise<ApiRequest> {
  const method = parseMethod(opts.method);
  const path = withQueryParams(parsePath(opts.path), opts.queryParam);
  if (opts.data === undefined) return { method, path };
  if (method === 'GET') throw new UsageError('a GET request takes no body: drop --data, or use --query-param key=value');
  return { method, path, body: await readData(opts.data, stdin) };
}

export async function runApiRequest(ctx: Context, opts: ApiRequestOptions): Promise<void> {
  const output = ctx.output; // a bad -o fails here, before anything is sent
  const req = await buildApiRequest(opts, ctx.io.stdin);
  // The rails of the dedicated commands hold here too, before anything is sent.
  const profile = await ctx.profile();
  if (isSandboxOnlyPath(req.path)) requireSandbox(profile, `api ${req.method} ${req.path}`);
  if (req.method !== 'GET' && !opts.dryRun) await confirmProduction(ctx, profile, `api ${req.method} ${req.path}`);
  const api = await ctx.api();
  if (opts.dryRun) {
    await printJson(ctx.io, output, api.preview(req));
    return;
  }
  // A raw command has no human view of its own: pretty JSON in table mode too.
  await printJson(ctx.io, output, await api.request(req));
}
