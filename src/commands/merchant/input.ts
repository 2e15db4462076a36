// `--file <path|->` for merchant create and update: one JSON object, a JSON array, JSON Lines
// (one merchant per line), or for create a CSV file with a header of field paths (csv-input.ts).
// Batch entries keep their line number (JSON Lines, CSV) or position (array) so every message,
// and the results file, can name them.
import { UsageError } from '../../errors.js';
import type { InStream } from '../../output/io.js';
import { jsonReason, parseJsonText } from '../../safety/json-reason.js';
import { readPath, readStdin } from '../source.js';
import { looksLikeCsv, parseCsvMerchants } from './csv-input.js';

export interface Entry {
  /** 1-based line (JSON Lines) or position (JSON array). */
  n: number;
  value?: unknown;
  /** The entry is not JSON at all. */
  parseError?: string;
}

export type MerchantInput =
  | { kind: 'single'; name: string; value: unknown }
  | { kind: 'batch'; name: string; unit: 'line' | 'item'; entries: Entry[] };

export async function readSource(source: string, stdin: InStream): Promise<{ name: string; text: string }> {
  if (source === '-') return { name: 'stdin', text: await readStdin(stdin) };
  return { name: source, text: await readPath('--file', source) };
}

const JSONL_NAME = /\.(jsonl|ndjson)$/i;

/**
 * One object is one merchant (a batch of one when `batch` is asked for, or the file is named
 * .jsonl); an array or several lines of objects is a batch. A malformed single document reports
 * its own JSON error rather than one per line.
 */
export function parseMerchantInput(name: string, text: string, batch = false): MerchantInput {
  if (text.trim() === '') throw new UsageError(`--file: ${name} is empty`);
  if (looksLikeCsv(name, text)) return { kind: 'batch', name, unit: 'line', entries: parseCsvMerchants(name, text) };
  const jsonLines = JSONL_NAME.test(name);
  if (!jsonLines) {
    let whole: unknown;
    let wholeError: string | undefined;
    try {
      whole = parseJsonText(text);
    } catch (err) {
      wholeError = jsonReason((err as Error).message, text);
    }
    if (wholeError === undefined) {
      if (Array.isArray(whole)) {
        if (whole.length === 0) throw new UsageError(`--file: ${name} is an empty array`);
        return { kind: 'batch', name, unit: 'item', entries: whole.map((value, i) => ({ n: i + 1, value })) };
      }
      if (!batch) return { kind: 'single', name, value: whole };
      return { kind: 'batch', name, unit: 'line', entries: [{ n: 1, value: whole }] };
    }
    if (!looksLikeJsonLines(text)) throw new UsageError(`--file: ${name} is not valid JSON: ${wholeError}`);
  }
  return { kind: 'batch', name, unit: 'line', entries: parseJsonLines(text) };
}

function looksLikeJsonLines(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]!);
    return true;
  } catch {
    return false;
  }
}

function parseJsonLines(text: string): Entry[] {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      entries.push({ n: i + 1, value: parseJsonText(line) });
    } catch (err) {
      entries.push({ n: i + 1, parseError: `not valid JSON: ${jsonReason((err as Error).message, line).replace(/ at line 1,/, ' at')}` });
    }
  });
  return entries;
}
