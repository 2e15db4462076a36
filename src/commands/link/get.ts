// pgw link get <link_id...>: GET /pg/payment-links/{id}/ (spec 4.4, shape 2.8, states part 3).
import type { Context } from '../../context.js';
import { runLookup, sharedPrefixFetch, type LookupOptions } from '../lookup.js';

export interface LinkPayment {
  payment_id: string;
  status?: string;
  mop_type?: string | null;
  amount?: string;
  created_at?: string;
  payment_completed_at?: string | null;
}

export interface PaymentLink {
  link_id: string;
  payment_id?: string;
  /** beyond 3.5: sent by the vendor's gateway (and pgw's sandbox) beyond spec 2.8. */
  amount?: string | number | null;
  order_id?: string;
  reference_id?: string;
  currency?: string;
  payment_link?: string;
  expiry_date?: string;
  mop_type?: string | null;
  status?: string;
  status_message?: string | null;
  created_at?: string;
  paid_payment_id?: string | null;
  buyer?: { name?: string; email?: string; phone?: string };
  product?: { name?: string; type_of_goods?: string };
  invoice?: { number?: string; date?: string | null };
  settlement?: { status?: string; message?: string; settlement_details?: { settlement_id?: string } | null } | null;
  payments?: LinkPayment[];
}

export async function runLinkGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  const fetch = sharedPrefixFetch(
    (id) => api.request<PaymentLink>({ method: 'GET', path: `/pg/payment-links/${id}/` }),
    'link',
    'payment',
    (id) => api.request({ method: 'GET', path: `/pg/payments/${id}/` }),
  );
  await runLookup(ctx, opts, 'link_id', fetch, {
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: (l) => v.linkDetail(l, ctx.io.colorOut, ctx.io.stdoutIsTTY),
        table: (ls) => v.linkTable(ls, ctx.io.colorOut, ctx.io.stdoutIsTTY),
      };
    },
  });
}
