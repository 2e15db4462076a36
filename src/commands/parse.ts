// Flag value parsers shared by verbs: each refuses bad input with one clear UsageError (exit 2)
// before anything is sent. Amounts are parsed in amount-option.ts: decimal.js stays off the paths
// of the verbs that take none (a look-up loads this file; issue 23).
import { UsageError } from '../errors.js';
import { KINDS, cleanId, expectedKind, otherKind } from './ids.js';

/** A duration no longer than `maxSeconds`. */
export function boundedDurationOption(flag: string, value: string, maxSeconds: number): number {
  const seconds = durationOption(flag, value);
  if (seconds > maxSeconds) throw new UsageError(`${flag}: must be at most ${maxSeconds / 86_400} days`);
  return seconds;
}

export function positiveIntOption(flag: string, value: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[0-9]+$/.test(value.trim())) throw new UsageError(`${flag}: "${value}" is not a whole number`);
  const n = Number.parseInt(value, 10);
  if (n < 1 || n > max) throw new UsageError(`${flag}: must be between 1 and ${max}`);
  return n;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "90s", "30m", "12h", "7d", or plain seconds. */
export function durationOption(flag: string, value: string): number {
  const match = /^([0-9]+)([smhd]?)$/.exec(value.trim());
  if (!match) throw new UsageError(`${flag}: "${value}" is not a duration (e.g. 90s, 30m, 12h, 7d)`);
  const seconds = Number.parseInt(match[1]!, 10) * UNIT_SECONDS[match[2] || 's']!;
  if (seconds < 1) throw new UsageError(`${flag}: must be at least 1 second`);
  return seconds;
}

export function httpUrlOption(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag}: "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag}: "${value}" must be an http or https address`);
  return url.toString();
}

/** `null` and `undefined` (any case): a missing value printed as text, never an ID. */
const NOT_A_VALUE = /^(?:null|undefined)$/i;

/**
 * Path segments are IDs the user pasted: quotes or a full stop around one are dropped and a known
 * prefix is upper-cased (ids.ts); anything that would change the path is refused. Where the
 * argument's name says which kind it takes (`payment_id`), an ID whose prefix names another kind
 * is refused too, naming what it is (`kind: false` leaves that to the caller).
 */
export function idArgument(name: string, value: string, opts: { kind?: boolean } = {}): string {
  const id = cleanId(value.trim());
  // What a script hands on when the field it read is missing: `--query` (and jq) print `null`,
  // JavaScript `undefined`, a shell an empty string. Sent, it would only answer "not found".
  if (id === '') throw new UsageError(`${name} is empty: give an ID (an empty argument is what a --query on a missing field leaves)`, { code: 'EMPTY_ID' });
  if (NOT_A_VALUE.test(id)) {
    throw new UsageError(`${name}: "${value}" is not an ID: it is what --query prints for a field that is missing; check the command that gave it`, { code: 'EMPTY_ID' });
  }
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new UsageError(`${name}: "${value}" is not a valid identifier`);
  const other = opts.kind === false ? undefined : otherKind(id, expectedKind(name));
  if (other !== undefined) {
    throw new UsageError(`${name}: ${id} is ${KINDS[other].label} ID, not ${KINDS[expectedKind(name)!].label} ID`, { code: 'ID_KIND' });
  }
  return id;
}
