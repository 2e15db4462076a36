// How `pgw events list|get` show the delivery log on a terminal (issue 33 items 8 and 9): the
// table's cells, the line an empty filtered list prints, and the detail view of one event.
import type { ColumnHint } from '../../output/fit.js';
import { renderDetail } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import type { EventDetail, EventSummary } from './run.js';

/** The table's `last` for one answer: the HTTP status, or the reason in a word or two. */
const shortAnswer = (a: { last_status: number | null; last_error: string | null }): string | undefined =>
  a.last_status !== null ? String(a.last_status) : a.last_error?.startsWith('refused:') ? 'refused (host)' : (a.last_error?.replace(/^connection /, '') ?? undefined);

/**
 * The `last` column. One address: its latest answer. Several: the worst of them, so a 200 from
 * one address never hides another that refuses (`1/2 failing`); every address fine: the latest.
 */
export function lastCell(e: EventSummary): string | undefined {
  const addresses = e.addresses ?? [];
  if (addresses.length > 1) {
    const failing = addresses.filter((a) => a.failing).length;
    if (failing > 0) return `${failing}/${addresses.length} failing`;
  }
  return shortAnswer(e);
}

/**
 * The `next` column. A retry is due minutes after the event (vendor 1.1: at most an hour), so on
 * a terminal it shows as HH:MM when it falls on the event's own day: the column then fits an
 * 80-column table beside the ID, type and status (a full time does not, and a time is dropped
 * whole rather than cut, fit.ts), which is why it once vanished exactly while an event was pending.
 */
export function nextCell(e: EventSummary, local: boolean): string | undefined {
  const next = formatTime(e.next_attempt_at, local);
  if (!local || next === undefined) return next;
  const created = formatTime(e.created_at, local);
  return created !== undefined && created.slice(0, 10) === next.slice(0, 10) ? next.slice(11) : next;
}

export const LIST_HEAD = ['id', 'event', 'about', 'status', 'tries', 'last', 'next', 'created', 'target'];

/**
 * At 80 columns the ID, event, what it is about (issue 42: which payment, refund or merchant) and
 * status stay whole, then the next attempt (the point of a pending event) and the last answer,
 * never cut (`1/2 faili…` reads as anything); the addresses, the creation time, then the tries
 * give way first.
 */
export const LIST_COLUMNS: ColumnHint[] = [
  { keep: true, priority: 100 },
  { keep: true, priority: 90 },
  { keep: true, priority: 85 },
  { keep: true, priority: 80 },
  { priority: 60 },
  { keep: true, priority: 70 },
  { priority: 75 },
  { priority: 30 },
  { priority: 10, cut: 'middle' },
];

export function listRow(e: EventSummary, local: boolean): (string | number | undefined)[] {
  return [
    e.id,
    e.event_type,
    e.about ?? undefined,
    e.status,
    e.attempts,
    lastCell(e),
    nextCell(e, local),
    formatTime(e.created_at, local),
    e.targets.length === 0 ? '(none)' : e.targets.join(' '),
  ];
}

/**
 * What an empty filtered list says on stderr: what else there is, and the flag that shows it.
 * "No failed events. 1 pending with a failed attempt: --status pending" (a receiver that refused
 * the first try leaves its event pending, not failed, until the retries are spent).
 */
export function emptyFilteredLine(status: string, others: readonly EventSummary[]): string {
  const counts = new Map<string, { n: number; failing: number }>();
  for (const e of others) {
    if (e.status === status) continue;
    const c = counts.get(e.status) ?? { n: 0, failing: 0 };
    c.n += 1;
    if ((e.addresses ?? []).some((a) => a.failing)) c.failing += 1;
    counts.set(e.status, c);
  }
  if (counts.size === 0) return `No ${status} events, nor any other${others.length >= 1000 ? ' in the newest 1000' : ''}.`;
  const parts = ['pending', 'failed', 'delivered', 'no_address']
    .filter((s) => counts.has(s))
    .map((s) => {
      const { n, failing } = counts.get(s)!;
      const what = s !== 'pending' || failing === 0 ? `${n} ${s}` : failing === n ? `${n} pending with a failed attempt` : `${n} pending (${failing} with a failed attempt)`;
      return `${what}: --status ${s}`;
    });
  return `No ${status} events. ${parts.join('; ')}`;
}

const answerText = (a: { status: number | null; error: string | null }) => (a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'no answer'));

/**
 * One event for people: its fields, each address with its attempts, the signatures each attempt
 * sent, then the body. Signatures and body are printed at column 0, each alone on its line and
 * never folded, so they can be copied as they are (a V2 value is 80 characters: it fits an
 * 80-column terminal only there). `pgw webhook verify --file <body> --signature <value>` checks
 * them with the Encryption Key, which is never shown.
 */
export function eventDetail(e: EventDetail, local: boolean): string {
  const fields = renderDetail([
    {
      rows: [
        ['id', e.id],
        ['event_type', e.event_type],
        ['sequence_number', e.sequence_number],
        ['merchant_id', e.merchant_id],
        ['created', formatTime(e.created_at, local)],
        ['status', e.status],
        ['attempts', String(e.attempts)],
        ['next attempt', formatTime(e.next_attempt_at, local)],
      ],
    },
    ...e.deliveries.map((d) => ({
      title: `${d.url} (${d.kind}, ${d.state})`,
      rows:
        d.attempts.length === 0
          ? ([['attempts', d.next_attempt_at ? `none yet; next ${formatTime(d.next_attempt_at, local)}` : 'none']] as [string, string][])
          : d.attempts.map((a) => [`#${a.n}`, `${formatTime(a.at, local)}  ${answerText(a)}  ${a.ms} ms`] as [string, string]),
    })),
  ]);
  const signatures: string[] = [];
  for (const d of e.deliveries) {
    for (const a of d.attempts) {
      signatures.push(`#${a.n} to ${d.url}:${a.signature === null || a.signature === undefined ? ' none sent' : ''}`);
      if (a.signature) signatures.push(a.signature);
      if (a.signature_v2) signatures.push(a.signature_v2);
    }
  }
  const parts = [fields];
  if (signatures.length > 0) parts.push(`X-Webhook-Signature, then X-Webhook-Signature-V2, as each attempt sent them:\n${signatures.join('\n')}\n`);
  parts.push(`body (${Buffer.byteLength(e.body)} bytes, exactly as sent and signed; the next line alone):\n${e.body}\n`);
  return parts.join('\n');
}
