// pgw payment get <payment_id...>: GET /pg/payments/{id}/ (spec 4.3, shape 2.7).
import type { Context } from '../../context.js';
import { runLookup, sharedPrefixFetch, type LookupOptions } from '../lookup.js';

/** The fields of spec 2.7 this view reads; everything else passes through to JSON untouched. */
export interface Payment {
  payment_id: string;
  status?: string;
  status_message?: string | null;
  collection_mode?: string;
  mop_type?: string;
  mop_detail?: Record<string, unknown> | null;
  bank_ref_num?: string;
  payment_completed_at?: string | null;
  created_date?: string;
  order?: {
    order_id?: string;
    reference_id?: string;
    amount?: string;
    currency?: string;
    status?: string;
    buyer?: { name?: string; email?: string; phone?: string; address?: Record<string, string | null | undefined> };
    product?: { name?: string; type_of_goods?: string; hs_code?: string | null };
    invoice?: { number?: string; date?: string | null };
  };
  settlement?: {
    id?: string;
    settlement_id?: string;
    settlement_amount?: string;
    settlement_currency?: string;
    settlement_completed_at?: string;
    utr_number?: string;
  } | null;
  /** vendor 11.3: the settlement/verification state. */
  settlement_status?: string | null;
  refund?: { refund_id?: string; id?: string; refund_amount?: string | number; refund_status?: string; amount?: string; status?: string; created_at?: string }[];
}

export async function runPaymentGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  const fetch = sharedPrefixFetch(
    (id) => api.request<Payment>({ method: 'GET', path: `/pg/payments/${id}/` }),
    'payment',
    'link',
    (id) => api.request({ method: 'GET', path: `/pg/payment-links/${id}/` }),
  );
  await runLookup(ctx, opts, 'payment_id', fetch, {
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: async (p) => v.paymentDetail(p, ctx.io.colorOut, ctx.io.stdoutIsTTY, await v.gatewayFigures(api, p), await outstanding(ctx, p), await review(ctx, p)),
        table: (ps) => v.paymentTable(ps, ctx.io.colorOut, ctx.io.stdoutIsTTY),
        csv: v.paymentCsv,
      };
    },
  });
}

/**
 * issue 42 item 2: a payment whose verification is open shows what the reviewer last said, what
 * it asks for and the deadline (on pgw's sandbox, from its delivery log: review.ts).
 */
async function review(ctx: Context, p: Payment): Promise<import('./review.js').ReviewFacts | undefined> {
  if (!['ACTION_REQUIRED', 'INFO_PENDING', 'UNDER_REVIEW', 'ON_HOLD'].includes(String(p.settlement_status))) return undefined;
  const { reviewOf, reviewSource } = await import('./review.js');
  return reviewSource(await ctx.profile()) ? reviewOf(await ctx.api(), p.payment_id) : undefined;
}

/** vendor 11.3 gating: a payment that accepts verification details shows what it still owes (11.2.1). */
async function outstanding(ctx: Context, p: Payment): Promise<string[] | undefined> {
  if (p.settlement_status !== 'ACTION_REQUIRED' && p.settlement_status !== 'INFO_PENDING') return undefined;
  try {
    const api = await ctx.api();
    const r = await api.request<import('./verification.js').Requirements>({ method: 'GET', path: `/pg/payments/${p.payment_id}/verification/` });
    const { outstandingOf } = await import('./verification.js');
    return outstandingOf(r);
  } catch {
    // A gateway without the verification endpoint: the state alone is shown.
    return undefined;
  }
}
