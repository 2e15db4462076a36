// The repeat guard of `pgw refund create` (issue 43 item 4, contract): the gateway takes no
// idempotency key, so a refund sent again after its answer was lost (a timeout, a crashed script,
// an agent's retry) is a second refund. Before sending, pgw reads the payment's refunds with the
// documented list (vendor 2.3) and refuses one identical to a refund made in the last 10 minutes:
// same payment, same amount, not failed or sent back. `--again` (`again: true`) sends it anyway.
// "The last 10 minutes" is on the sandbox's own clock where the gateway is pgw's sandbox (the
// refunds' created_at are on it), else on this machine's.
import type { ApiClient } from '../../api/types.js';
import type { Context } from '../../context.js';
import { PgwError, RefusedError } from '../../errors.js';
import { Money, formatAmount, isAmountString } from '../../money.js';
import { parseIsoTime } from '../../api/schemas/index.js';
import { pageWithResults, type Page } from '../pages.js';
import type { Refund } from './view.js';

export const REPEAT_WINDOW_MINUTES = 10;
const WINDOW_MS = REPEAT_WINDOW_MINUTES * 60_000;
/** Refunds whose money is back with the merchant (vendor 2.5): sending one again is no repeat. */
const UNDONE = new Set(['failed', 'reversed', 'bank_rejected_refund']);

function sameAmount(a: unknown, b: string): boolean {
  const text = typeof a === 'number' ? String(a) : typeof a === 'string' ? a.trim() : '';
  return isAmountString(text) && new Money(text).eq(b);
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

/**
 * Refuses (exit 6, nothing sent) a refund of `amount` on `paymentId` identical to one made in the
 * window. Without an amount the gateway refunds what is left, which a repeat finds nothing of:
 * there is nothing to guard. A refund the list gives no created_at for counts as recent.
 */
export async function refuseRepeat(ctx: Context, api: ApiClient, paymentId: string, amount: string | undefined): Promise<void> {
  if (amount === undefined) return;
  let refunds: Refund[];
  try {
    const page = await api.request<Page<Refund>>({ method: 'GET', path: '/pg/refunds/', query: { payment_id: paymentId, page_size: 1000 } });
    refunds = pageWithResults<Refund>(page, 'the refund list').results ?? [];
  } catch (err) {
    // The check could not be made: the refund is not sent blind. The error keeps its kind (exit code).
    if (err instanceof PgwError) {
      Object.assign(err, { message: `the repeat guard could not read the payment's refunds: ${err.message}; nothing was sent`, suggestion: '--again sends the refund without the check' });
    }
    throw err;
  }
  const { sandboxNow } = await import('../sandbox/clock.js');
  const now = (await sandboxNow(ctx)).getTime();
  for (const r of refunds) {
    if (r.payment_id !== undefined && r.payment_id !== paymentId) continue;
    if (!sameAmount(r.refund_amount, amount) || UNDONE.has(String(r.refund_status ?? '').toLowerCase())) continue;
    const made = typeof r.created_at === 'string' ? parseIsoTime(r.created_at) : undefined;
    if (made !== undefined && now - made > WINDOW_MS) continue;
    const when = made === undefined ? 'recently (the gateway does not say when)' : ago(now - made);
    throw new RefusedError(
      `refund ${r.refund_id ?? '(no id)'} of ${formatAmount(amount)} was made on payment ${paymentId} ${when}: an identical refund within ${REPEAT_WINDOW_MINUTES} minutes is refused, because the gateway has no idempotency key and a retried request would refund twice; nothing was sent`,
      {
        code: 'REPEAT_REFUND',
        details: { refund_id: r.refund_id ?? null, refund_status: r.refund_status ?? null, created_at: r.created_at ?? null },
        suggestion: `if a second refund of ${formatAmount(amount)} is meant, send it with --again`,
      },
    );
  }
}
