// The readable views of `pgw payment get`: one payment's summary (with the fee, GST and net the
// gateway states) and the table of several. Loaded only for table output (issue 23): JSON never
// loads the table code.
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { displayAmount, displayMoney } from '../../money.js';
import { debitsOf, statusWithDebits, totalOf } from './debits.js';
import { ownBreakdown, type PaymentFigures } from './figures.js';
import { toCsv, type CsvColumn, type CsvOptions } from '../../output/csv.js';
import type { Payment } from './get.js';
import { stateLabel } from '../../settlement-states.js';
import { reviewRows, type ReviewFacts } from './review.js';

/** The fee, GST and net the gateway states: looked up for the summary only. */
export { gatewayFigures } from './figures.js';

const money = (o: { amount?: string; currency?: string } | undefined): string | undefined => displayMoney(o?.amount, o?.currency);

/** `captured · refunded 2499.00`: the (coloured) status, then what was taken back, if anything. */
const withTaken = (status: string, taken: string | undefined): string => (taken ? `${status} · ${taken}` : status);

/** spec 2.7 shows mop_detail only for upi (vpa); card and bank keys are shown when a gateway sends them. */
function methodDetail(p: Payment): string | undefined {
  if (!p.mop_type) return undefined;
  const detail = p.mop_detail ?? {};
  const text = (k: string) => (typeof detail[k] === 'string' && detail[k] !== '' ? (detail[k] as string) : undefined);
  const last4 = text('last4') ?? text('card_last4');
  const extra = [text('vpa'), text('network') ?? text('card_network'), last4 ? `ending ${last4}` : undefined, text('bank')].filter((v) => v !== undefined);
  return extra.length > 0 ? `${p.mop_type} (${extra.join(', ')})` : p.mop_type;
}

/** The settlement's ID only: its amount is the whole batch's, which support staff read as this payment's. */
function settlementLine(p: Payment): string {
  const s = p.settlement;
  if (!s || !(s.id || s.settlement_id)) return 'not settled';
  return (s.id ?? s.settlement_id)!;
}

/** This payment's own fee, GST and net, only as the gateway states them (figures.ts). */
function ownFigures(p: Payment, figures: PaymentFigures | undefined): [string, string | undefined][] {
  if (!figures) return [];
  const currency = figures.currency ?? p.order?.currency ?? '';
  const show = (v: string | undefined) => displayMoney(v, currency);
  return [
    ['fee', show(figures.fee)],
    ['gst', show(figures.gst)],
    ['net', show(figures.net)],
    ['figures from', figures.source],
  ];
}

function addressLine(address: Record<string, string | null | undefined> | undefined): string | undefined {
  if (!address) return undefined;
  return ['line_1', 'line_2', 'city', 'state', 'postal_code']
    .map((k) => address[k])
    .filter((v) => v)
    .join(', ');
}

/** `figures`: the fee, GST and net the gateway states for this payment (gatewayFigures), if any. */
export function paymentDetail(p: Payment, color: boolean, local: boolean, figures?: PaymentFigures, outstanding?: string[], review?: ReviewFacts): string {
  const theme = createTheme(color);
  const order = p.order ?? {};
  const buyer = order.buyer ?? {};
  const product = order.product ?? {};
  const debits = debitsOf(p, p.payment_id);
  const summary = statusWithDebits(undefined, debits);
  const sections: Parameters<typeof renderDetail>[0] = [
    {
      title: theme.bold(`Payment ${p.payment_id}`),
      rows: [
        ['status', `${withTaken(theme.status(p.status), summary)}${p.status_message ? `  ${p.status_message}` : ''}`],
        ['amount', money(order)],
        ['method', methodDetail(p)],
        ['collection', p.collection_mode],
        ['bank reference', p.bank_ref_num],
        ['created', formatTime(p.created_date, local)],
        ['completed', formatTime(p.payment_completed_at, local)],
      ],
    },
    {
      title: 'Order',
      rows: [
        ['order_id', order.order_id],
        ['reference_id', order.reference_id],
        ['status', order.status ? theme.status(order.status) : undefined],
        ['invoice', order.invoice?.number ? `${order.invoice.number}${order.invoice.date ? ` (${order.invoice.date})` : ''}` : undefined],
      ],
    },
    {
      title: 'Buyer',
      rows: [
        ['name', buyer.name],
        ['email', buyer.email],
        ['phone', buyer.phone],
        ['address', addressLine(buyer.address)],
      ],
    },
    {
      title: 'Product',
      rows: [
        ['name', product.name],
        ['type', product.type_of_goods],
        ['hs_code', product.hs_code ?? undefined],
      ],
    },
    {
      title: 'Settlement',
      rows: [
        ['settlement_id', settlementLine(p)],
        // vendor 11.3 and what the verification still owes (pgw payment verification lists it).
        ['status', stateLabel(p.settlement_status)],
        ['outstanding', outstanding === undefined ? undefined : outstanding.length ? `${outstanding.join(', ')} (pgw payment verify ${p.payment_id})` : 'nothing'],
        // issue 42: the reviewer's last message, what it asks for, the deadline.
        ...reviewRows(review, p.settlement_status ?? undefined, local),
        ...ownFigures(p, figures),
        ['completed', formatTime(p.settlement?.settlement_completed_at, local)],
        ['utr', p.settlement?.utr_number],
      ],
    },
    {
      // vendor 2.6 (refund_amount, refund_status; older gateways amount, status) and the sandbox's chargebacks (debits.ts).
      title: `Refunds and chargebacks (${debits.length})`,
      rows:
        debits.length === 0
          ? [['refunds', 'none']]
          : debits.map((d) => [
              d.id ?? d.kind,
              [d.kind === 'chargeback' ? 'chargeback' : undefined, displayMoney(d.amount, order.currency) ?? '-', d.status ? theme.status(d.status) : undefined, formatTime(d.created_at, local)].filter((v) => v).join('  '),
            ]),
    },
  ];
  return renderDetail(sections.map((s) => ({ ...s, rows: s.rows.filter(([, v]) => v !== undefined && v !== '') })).filter((s) => s.rows.length > 0));
}

export function paymentTable(payments: Payment[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['payment_id', 'status', 'amount', 'currency', 'order_id', 'settlement_id', 'method', 'created'],
    payments.map((p) => [
      p.payment_id,
      withTaken(theme.status(p.status), statusWithDebits(undefined, debitsOf(p, p.payment_id))),
      displayAmount(p.order?.amount),
      displayAmount(p.order?.amount) === undefined ? undefined : p.order?.currency,
      p.order?.order_id,
      p.settlement?.id ?? p.settlement?.settlement_id ?? '-',
      p.mop_type,
      formatTime(p.created_date, local),
    ]),
    color,
    // Narrow terminals lose the time first, then the method; IDs and money stay whole.
    { columns: [undefined, undefined, { money: true }, undefined, { keep: true, priority: 400 }, { keep: true, priority: 450 }, { priority: 30 }, { keep: true, priority: 20 }] },
  );
}

/**
 * `payment get <id…> -o csv` (issue 41 item 2): the several-IDs table as CSV, with what a
 * spreadsheet of payments needs beside it: the order's reference and invoice, the buyer, the
 * settlement (state, ST…, UTR, when) and this payment's own fee, gst and net where the gateway
 * states them on the payment (spec 2.9), and what was refunded and charged back. No request
 * beyond Get Payment: a figure the payment does not carry is an empty field.
 */
export const PAYMENT_GET_CSV: CsvColumn<Payment>[] = [
  { header: 'payment_id', value: (p) => p.payment_id },
  { header: 'status', value: (p) => p.status },
  { header: 'amount', value: (p) => displayAmount(p.order?.amount) },
  { header: 'currency', value: (p) => p.order?.currency },
  { header: 'mop_type', value: (p) => p.mop_type },
  { header: 'order_id', value: (p) => p.order?.order_id },
  { header: 'reference_id', value: (p) => p.order?.reference_id },
  { header: 'invoice_number', value: (p) => p.order?.invoice?.number },
  { header: 'buyer_name', value: (p) => p.order?.buyer?.name },
  { header: 'buyer_email', value: (p) => p.order?.buyer?.email },
  { header: 'created_date', value: (p) => p.created_date },
  { header: 'payment_completed_at', value: (p) => p.payment_completed_at },
  { header: 'settlement_status', value: (p) => p.settlement_status },
  { header: 'settlement_id', value: (p) => p.settlement?.id ?? p.settlement?.settlement_id },
  { header: 'utr_number', value: (p) => p.settlement?.utr_number },
  { header: 'settlement_completed_at', value: (p) => p.settlement?.settlement_completed_at },
  { header: 'fee', value: (p) => ownBreakdown(p)?.fee },
  { header: 'gst', value: (p) => ownBreakdown(p)?.gst },
  { header: 'net', value: (p) => ownBreakdown(p)?.net },
  { header: 'refunded', value: (p) => totalOf(debitsOf(p, p.payment_id), 'refund') },
  { header: 'charged_back', value: (p) => totalOf(debitsOf(p, p.payment_id), 'chargeback') },
];

export const paymentCsv = (payments: Payment[], options: CsvOptions): string => toCsv(PAYMENT_GET_CSV, payments, options);
