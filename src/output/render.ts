// Table, detail view and JSON: data to stdout only. JSON skips the human path entirely.
import { createRequire } from 'node:module';
import type TableClass from 'cli-table3';
import type { IO } from './io.js';
import type { OutputOptions } from '../context.js';
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
 * The one entry point commands use: JSON (with --query) for scripts, or the human renderer.
 */
export async function emit(io: IO, output: OutputOptions, data: unknown, human: () => void): Promise<void> {
  if (wantsJson(output)) {
    await printJson(io, output, data);
    return;
  }
  human();
}

let Table: typeof TableClass | undefined;

/**
 * cli-table3 is required on the first table drawn, from node_modules (it is CommonJS, so this stays
 * synchronous): JSON output, which is every run on a pipe, never pays for it (issue 7).
 */
function tableClass(): typeof TableClass {
  Table ??= createRequire(import.meta.url)('cli-table3') as typeof TableClass;
  return Table;
}

export function renderTable(head: string[], rows: (string | number | null | undefined)[][], color: boolean): string {
  const Table = tableClass();
  const table = new Table({
    head,
    style: color ? { head: ['bold'], border: ['grey'], compact: true } : { head: [], border: [], compact: true },
  });
  for (const row of rows) table.push(row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))));
  return `${table.toString()}\n`;
}

/** A two-column "label  value" view for one resource; sections separated by blank lines. */
export function renderDetail(sections: { title?: string; rows: [string, string | null | undefined][] }[]): string {
  const width = Math.max(0, ...sections.flatMap((s) => s.rows.map(([label]) => label.length)));
  const parts = sections.map((s) => {
    const lines = s.rows.map(([label, value]) => `${label.padEnd(width)}  ${value ?? '-'}`);
    return s.title ? [s.title, ...lines.map((l) => `  ${l}`)].join('\n') : lines.join('\n');
  });
  return `${parts.join('\n\n')}\n`;
}
