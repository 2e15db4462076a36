// JSON (with --query) and the choice between JSON, CSV and the human view: data to stdout only.
// Apart from the table and detail renderers (render.ts), so a command whose output on a pipe is
// JSON (settle calc) loads neither cli-table3 nor string-width to print it (issue 23).
import type { IO } from './io.js';
import type { OutputOptions } from './options.js';
import type { CsvOptions } from './csv.js';
import { UsageError } from '../errors.js';

export function wantsJson(output: OutputOptions): boolean {
  return output.format === 'json' || output.query !== undefined;
}

/**
 * Check --query before anything is sent (contract: a check that needs no network happens before the
 * first request): its syntax, and that every function it calls exists. Loaded only with a query.
 */
export async function checkQuery(query: string | undefined): Promise<void> {
  if (query === undefined) return;
  const { compile, isRegistered } = await import('@jmespath-community/jmespath');
  let ast: unknown;
  try {
    ast = compile(query);
  } catch (err) {
    throw new UsageError(`--query: ${(err as Error).message.split('\n')[0]}`);
  }
  const unknown = functionNames(ast).find((name) => !isRegistered(name));
  if (unknown !== undefined) throw new UsageError(`--query: unknown function ${unknown}()`);
}

function functionNames(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(functionNames);
  if (node === null || typeof node !== 'object') return [];
  const own = (node as { type?: unknown; name?: unknown }).type === 'Function' ? [String((node as { name: unknown }).name)] : [];
  return [...own, ...Object.values(node).flatMap(functionNames)];
}

/** Apply --query (JMESPath, like aws --query). Loaded only when a query is given. */
export async function applyQuery(data: unknown, query: string | undefined): Promise<unknown> {
  if (query === undefined) return data;
  const { search } = await import('@jmespath-community/jmespath');
  try {
    return search(data as Parameters<typeof search>[0], query);
  } catch (err) {
    throw new UsageError(`--query: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Print a JSON result; a string result of --query prints raw so $(pgw ... --query id) works. */
export async function printJson(io: IO, output: OutputOptions, data: unknown, opts: { own?: boolean } = {}): Promise<void> {
  // `own`: a template of pgw's own (its example card must print as it is); anything else passes the guard.
  const result = await applyQuery(opts.own ? data : io.clean(data), output.query);
  const write = (text: string) => (opts.own ? io.outOwn(text) : io.outData(text));
  if (output.query !== undefined && typeof result === 'string') {
    write(`${result}\n`);
    return;
  }
  write(`${JSON.stringify(result ?? null, null, 2)}\n`);
}

/**
 * The one entry point commands use: JSON (with --query) for scripts, CSV for the list and recon
 * commands (`csv` gives the document with the options it is handed; csv.ts), or the human renderer.
 * --csv-raw is read here only, so every -o csv follows it the same way.
 */
export async function emit(io: IO, output: OutputOptions, data: unknown, human: () => void, csv?: (options: CsvOptions) => string): Promise<void> {
  if (wantsJson(output)) {
    await printJson(io, output, data);
    return;
  }
  if (output.format === 'csv') {
    if (!csv) throw new UsageError('-o csv is for list and recon commands; use -o json or -o table');
    // Through the whole guard, as any text: a gateway's text never carries a secret or card number out.
    io.out(csv({ raw: output.csvRaw === true }));
    return;
  }
  human();
}
