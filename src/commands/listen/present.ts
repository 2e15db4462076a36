// How `pgw listen` shows an event: one line for a person (time, event, the IDs it carries, what
// the forward did), or on a pipe / with --json the event itself, one JSON object per line.
import type { EventEnvelope } from '../../events.js';
import { redactBody, redactText } from '../../safety/redact.js';
import type { Theme } from '../../output/theme.js';
import type { ForwardResult } from './forward.js';

/** The IDs a person looks for, in this order (spec part 6: payment_id, and link_id through a link). */
const ID_FIELDS = ['settlement_id', 'refund_id', 'payment_id', 'link_id', 'merchant_id', 'order_id'] as const;
/** vendor 1.6: settlements and refunds come as arrays of objects inside data. */
const LISTS = ['settlements', 'refunds'] as const;

// Text from the sender reaches a terminal: no escape sequences or line breaks (contract, output rules).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const clean = (text: string): string => text.replace(CONTROL, '');

export interface ParsedEvent {
  /** The envelope, when the body is JSON of that shape. */
  envelope?: EventEnvelope;
  /** The event's name, or "(not JSON)" / "(no event)". */
  name: string;
}

export function parseEvent(body: Buffer): ParsedEvent {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { name: '(not JSON)' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { name: '(no event)' };
  const envelope = value as EventEnvelope;
  return { envelope, name: typeof envelope.event_type === 'string' ? envelope.event_type : '(no event)' };
}

/** `settlement_id=ST..`, `payment_id=PR..`: the IDs the event's data carries, most telling first. */
export function eventIdParts(envelope: EventEnvelope | undefined): string[] {
  const data = envelope?.data;
  if (!data || typeof data !== 'object') return [];
  // The fields of the data and of each entry of its lists (a settlement, the refunds), values in order.
  const values = new Map<string, string[]>();
  const take = (obj: Record<string, unknown>) => {
    for (const field of ID_FIELDS) {
      const v = obj[field];
      if (typeof v === 'string' && v !== '' && !values.get(field)?.includes(v)) values.set(field, [...(values.get(field) ?? []), v]);
    }
  };
  take(data);
  for (const list of LISTS) {
    const entries = data[list];
    if (Array.isArray(entries)) for (const e of entries) if (e && typeof e === 'object') take(e as Record<string, unknown>);
  }
  const parts: string[] = [];
  for (const field of ID_FIELDS) {
    const v = values.get(field);
    if (v) parts.push(clean(`${field}=${v.join(',')}`));
  }
  return parts;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local wall-clock time: a live tail needs no date. */
export function clock(at: Date): string {
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

export function forwardText(result: ForwardResult | undefined, theme: Theme): string {
  if (!result) return '';
  if (!result.ok) return theme.red(`→ failed: ${clean(result.error)} (${result.ms} ms)`);
  const text = `→ ${result.status} (${result.ms} ms)`;
  return result.status >= 200 && result.status < 300 ? theme.chalk.green(text) : theme.red(text);
}

/** Whether X-Webhook-Signature verified with the account's Encryption Key (absent: no key known). */
export type SignatureMark = 'ok' | 'bad' | 'unsigned';

function signatureText(mark: SignatureMark | undefined, theme: Theme): string {
  if (mark === undefined) return '';
  if (mark === 'ok') return theme.chalk.green('signed ✓');
  return theme.red(mark === 'bad' ? 'BAD SIGNATURE' : 'UNSIGNED');
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
const visibleLength = (text: string): number => text.replace(SGR, '').length;

/**
 * The terminal line: time, event, IDs, and the forward's result when forwarding. On a terminal of
 * `width` columns the line never wraps: the last IDs (order_id first, which the others imply) give
 * way, never the time, the event, the first ID or the forward's result.
 */
export function eventLine(at: Date, parsed: ParsedEvent, result: ForwardResult | undefined, theme: Theme, width?: number, signature?: SignatureMark, notForwarded?: string): string {
  const ids = eventIdParts(parsed.envelope);
  // Issue 45: an event the app gets without this listener says so where the forward's result goes.
  const fwd = notForwarded !== undefined ? theme.dim(`→ not forwarded: ${clean(notForwarded)}`) : forwardText(result, theme);
  const sig = signatureText(signature, theme);
  const build = () => [theme.dim(clock(at)), theme.bold(clean(parsed.name).padEnd(18)), sig, ids.join('  '), fwd].filter((p) => p !== '').join('  ').trimEnd();
  let line = build();
  while (width !== undefined && ids.length > 1 && visibleLength(line) > width) {
    ids.pop();
    line = build();
  }
  return `${line}\n`;
}

/**
 * The event as received, on one line. Only what pgw must never print is changed (contract, safety
 * rails): card numbers and CVVs, and the client secret; then it is re-serialised, else the bytes
 * are printed as they came.
 */
export function jsonLine(body: Buffer, secret: string | undefined): string {
  const raw = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return `${JSON.stringify({ body: redactText(raw, secret) })}\n`;
  }
  const masked = redactBody(value, secret);
  const same = JSON.stringify(masked) === JSON.stringify(value);
  return same && !/[\r\n]/.test(raw) ? `${raw}\n` : `${JSON.stringify(masked)}\n`;
}
