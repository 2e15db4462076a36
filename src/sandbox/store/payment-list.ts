// GET /pg/payments/ (vendor 3.1): the payments a support agent searches, newest first. Filters are
// the documented ones; buyer_name matches a part of the name in any case (a person types part of
// a name), the others match exactly; invoice_number (not a documented filter) too (reference_id, order_id, payment_id are copied, not typed).
import { formatAmount } from '../../money.js';
import { parseJson, type Core, type Scope } from './core.js';
import { nextDay } from './refunds.js';

export interface PaymentFilter {
  currency?: string;
  merchant_id?: string;
  payment_id?: string;
  order_id?: string;
  reference_id?: string;
  /** Not a vendor 3.1 filter: honoured exactly, as the entry's invoice_number (docs/sandbox.md). */
  invoice_number?: string;
  buyer_name?: string;
  mop_type?: string;
  status?: string;
  /** from_created_at / to_created_at: whole UTC days, both ends included. */
  fromDay?: string;
  toDay?: string;
}

interface Row {
  payment_id: string;
  order_id: string;
  merchant_id: string;
  brand_name: string;
  reference_id: string;
  buyer: string;
  invoice: string | null;
  amount: string;
  currency: string;
  mop_type: string | null;
  status: string;
  status_message: string | null;
  created_at: string;
}

export function listPayments(core: Core, scope: Scope, filter: PaymentFilter, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    const merchants = filter.merchant_id === undefined ? scope : scope.filter((m) => m === filter.merchant_id);
    if (merchants.length === 0) return { count: 0, results: [] };
    const where = [`p.merchant_id IN (${merchants.map(() => '?').join(', ')})`];
    const args: unknown[] = [...merchants];
    const exact = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      args.push(value);
    };
    exact('p.payment_id', filter.payment_id);
    exact('p.order_id', filter.order_id);
    exact('o.reference_id', filter.reference_id);
    exact("json_extract(o.invoice, '$.number')", filter.invoice_number);
    exact('p.status', filter.status?.toLowerCase());
    exact('p.mop_type', filter.mop_type?.toLowerCase());
    exact('upper(p.currency)', filter.currency?.toUpperCase());
    if (filter.buyer_name !== undefined) {
      // LIKE is case-insensitive for ASCII; % and _ typed by the user are taken literally.
      where.push(`json_extract(o.buyer, '$.name') LIKE ? ESCAPE '\\'`);
      args.push(`%${filter.buyer_name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    if (filter.fromDay) {
      where.push('p.created_at >= ?');
      args.push(`${filter.fromDay}T00:00:00`);
    }
    if (filter.toDay) {
      where.push('p.created_at < ?');
      args.push(nextDay(filter.toDay));
    }
    const from = 'payments p JOIN orders o ON o.order_id = p.order_id JOIN merchants m ON m.merchant_id = p.merchant_id';
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<Row>(
      `SELECT p.payment_id, p.order_id, p.merchant_id, m.brand_name, o.reference_id, o.buyer, o.invoice, p.amount, p.currency,
              p.mop_type, p.status, p.status_message, p.created_at
         FROM ${from} WHERE ${clause} ORDER BY p.created_at DESC, p.rowid DESC LIMIT ? OFFSET ?`,
      ...args,
      pageSize,
      (page - 1) * pageSize,
    );
    return { count, results: rows.map(entry) };
  });
}

/** vendor 3.1's result entry. */
function entry(r: Row): Record<string, unknown> {
  const buyer = parseJson<{ name?: string; email?: string; phone?: string }>(r.buyer) ?? {};
  const invoice = parseJson<{ number?: string | null }>(r.invoice);
  const amount = formatAmount(r.amount);
  return {
    payment_id: r.payment_id,
    merchant: { id: r.merchant_id, name: r.brand_name },
    order_id: r.order_id,
    invoice_number: invoice?.number ?? null,
    reference_id: r.reference_id,
    buyer: { name: buyer.name ?? null, email: buyer.email ?? null, phone: buyer.phone ?? null },
    amount: { amount, total_amount: amount, currency: r.currency },
    created_at: r.created_at,
    comment: r.status_message,
    mop_type: r.mop_type,
    status: r.status,
  };
}
