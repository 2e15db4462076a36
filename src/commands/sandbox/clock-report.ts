// What a clock move caused (issue 42 item 5), as POST /sandbox/clock/ answers it in `caused`:
// a table for a person, one line for an agent's tool result, and the next step. Money moved by a
// move is never silent: every refund is named with its amount.
import { renderDetail } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';
import { Money } from '../../money.js';
import type { Caused as ClockCaused } from '../../sandbox/store/clock-effects.js';

/** The answer's `caused`, as the sandbox's store defines it (one shape, store/clock-effects.ts). */
export type { ClockCaused };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (items: string[], max = 3) => `${items.slice(0, max).join(', ')}${items.length > max ? `, … ${items.length - max} more` : ''}`;

function attemptsText(c: ClockCaused): string {
  const d = c.deliveries;
  return d.attempted === 0 ? 'none' : `${d.attempted} (${d.delivered} delivered, ${d.failed} failed)`;
}

/** One line: what an agent reads first (pgw mcp's summary), and what the stderr line says. */
export function causedLine(c: ClockCaused): string {
  const parts: string[] = [];
  if (c.deliveries.attempted > 0) parts.push(`${plural(c.deliveries.attempted, 'webhook attempt')} (${c.deliveries.delivered} delivered, ${c.deliveries.failed} failed)`);
  if (c.events_failed.length) parts.push(`${plural(c.events_failed.length, 'event')} now failed (${list(c.events_failed.map((e) => e.id))})`);
  if (c.links_expired.length) parts.push(`${plural(c.links_expired.length, 'link')} expired (${list(c.links_expired.map((l) => l.link_id))})`);
  if (c.verifications_expired.length) parts.push(`${plural(c.verifications_expired.length, 'verification')} expired (${list(c.verifications_expired.map((v) => v.payment_id))})`);
  if (c.refunds.length) parts.push(`${plural(c.refunds.length, 'refund')} issued, ${c.refunded_total} in all (${list(c.refunds.map((r) => `${r.refund_id} ${r.amount} on ${r.payment_id}`))})`);
  if (c.subscription_payments.length) parts.push(`${plural(c.subscription_payments.length, 'subscription payment')}`);
  return parts.length ? `caused: ${parts.join('; ')}` : 'caused: nothing (no attempt, expiry or refund fell due)';
}

/**
 * An expired verification: the payment's amount, then what its refund gave back. A payment
 * already partly refunded gets the rest, so the refund's own amount is named (it read as if the
 * whole amount had been refunded); one already refunded in full gets nothing more.
 */
function expiredText(v: ClockCaused['verifications_expired'][number]): string {
  const head = `${plainText(v.payment_id)} ${v.amount}`;
  if (!v.refund_id) return `${head}, nothing left to refund`;
  const how = v.refund_amount !== null && new Money(v.refund_amount).eq(v.amount) ? 'refunded in full' : `${v.refund_amount} refunded`;
  return `${head}, ${how} by ${plainText(v.refund_id)}`;
}

/** The table under the clock: one row per kind of consequence, every ID named (one per line). */
export function renderCaused(c: ClockCaused): string {
  const text = (v: string | null | undefined) => (v ? plainText(v) : '-');
  const block = (label: string, lines: string[]): [string, string][] => (lines.length ? lines.map((l, i): [string, string] => [i === 0 ? label : '', l]) : [[label, 'none']]);
  const rows: [string, string][] = [
    ['webhook attempts', attemptsText(c)],
    ...block('events now failed', c.events_failed.map((e) => `${text(e.id)} ${text(e.event_type)} about ${text(e.about)} (${plural(e.attempts, 'attempt')}, last ${e.last_status ?? text(e.last_error)})`)),
    ...block('links expired', c.links_expired.map((l) => `${text(l.link_id)} ${l.amount} (order ${text(l.order_id)})`)),
    ...block('verifications expired', c.verifications_expired.map(expiredText)),
    ...block('refunds issued', c.refunds.length ? [`${c.refunded_total} in ${plural(c.refunds.length, 'refund')}`, ...c.refunds.map((r) => `${text(r.refund_id)} ${r.amount} on ${text(r.payment_id)} (${r.reason})`)] : []),
    ...block('subscription payments', c.subscription_payments.map((p) => `${text(p.payment_id)} ${p.amount}`)),
  ];
  return renderDetail([{ title: 'what the move caused', rows }]);
}

/** Where to look next: the failed deliveries, the refunds. */
export function causedNext(c: ClockCaused): string[] {
  const next: string[] = [];
  if (c.events_failed.length) next.push('pgw events list --status failed');
  // refund get takes several IDs: every refund the move issued, in one look-up.
  if (c.refunds.length) next.push(`pgw refund get ${c.refunds.map((r) => r.refund_id).join(' ')}`);
  if (c.verifications_expired.length && !c.refunds.length) next.push(`pgw payment verification ${c.verifications_expired[0]!.payment_id}`);
  return next;
}
