// The order reference of each refund, for the readable views and CSV only (issue 33 item 7: a
// support agent matches refunds to the merchant's order numbers). A refund object (vendor 2.5)
// names its payment, not its order's reference_id; pgw's sandbox adds reference_id, and for a
// gateway that does not, each distinct payment is read once (GET /pg/payments/{id}/, spec 2.7
// order.reference_id), a few at a time. A look-up that fails leaves that reference empty.
import type { ApiClient } from '../../api/types.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';
import type { Refund } from './view.js';

export async function withReferences(api: Pick<ApiClient, 'request'>, refunds: Refund[]): Promise<Refund[]> {
  const missing = [...new Set(refunds.filter((r) => r.reference_id === undefined).map((r) => r.payment_id ?? r.transaction_id).filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (missing.length === 0) return refunds;
  const outcomes = await fetchAll(missing, DEFAULT_CONCURRENCY, (id) =>
    api.request<{ order?: { reference_id?: string } }>({ method: 'GET', path: `/pg/payments/${encodeURIComponent(id)}/` }),
  );
  const byPayment = new Map<string, string>();
  for (const o of outcomes) {
    const ref = o.ok ? o.value?.order?.reference_id : undefined;
    if (typeof ref === 'string') byPayment.set(o.id, ref);
  }
  return refunds.map((r) => (r.reference_id !== undefined ? r : { ...r, reference_id: byPayment.get(r.payment_id ?? r.transaction_id ?? '') ?? null }));
}
