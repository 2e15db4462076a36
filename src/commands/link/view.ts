// The readable views of `pgw link get`. Loaded only for table output (issue 23).
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { displayAmount, displayMoney } from '../../money.js';
import type { LinkPayment, PaymentLink } from './get.js';
import { stateLabel } from '../../settlement-states.js';

/** spec 2.8: when paid_payment_id differs from link_id, the money moved on that payment. */
export function reconciliationLine(link: PaymentLink): string | undefined {
  if (!link.paid_payment_id || link.paid_payment_id === link.link_id) return undefined;
  return `paid by ${link.paid_payment_id}, not ${link.link_id}: reconcile and settle by ${link.paid_payment_id} (pgw payment get ${link.paid_payment_id}); the link's settlement field does not follow it`;
}

/** beyond 3.5: the link's own amount when the gateway sends it; else what its payments show (2 decimals, money.ts). */
function capturedAmount(link: PaymentLink): string | undefined {
  if (link.amount !== undefined && link.amount !== null && link.amount !== '') return displayAmount(link.amount);
  const paid = link.payments?.find((p) => p.payment_id === link.paid_payment_id) ?? link.payments?.find((p) => p.status === 'captured');
  const any = paid ?? link.payments?.[0];
  return any?.amount ? displayAmount(any.amount) : undefined;
}

/** spec 2.8 promises newest first; sorted again so a gateway that does not keep it is still read right. */
function newestFirst(payments: LinkPayment[]): LinkPayment[] {
  const at = (p: LinkPayment) => (p.created_at ? Date.parse(p.created_at) : Number.NaN);
  return payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (Number.isNaN(at(a.p)) || Number.isNaN(at(b.p)) ? a.i - b.i : at(b.p) - at(a.p) || a.i - b.i))
    .map(({ p }) => p);
}

export function linkDetail(link: PaymentLink, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  const payments = newestFirst(link.payments ?? []);
  const settlementId = link.settlement?.settlement_details?.settlement_id;
  const sections = [
    {
      title: theme.bold(`Payment link ${link.link_id}`),
      rows: [
        ['status', `${theme.status(link.status)}${link.status_message ? `  ${link.status_message}` : ''}`],
        ['amount', capturedAmount(link) === undefined ? undefined : displayMoney(capturedAmount(link), link.currency)],
        ['reference_id', link.reference_id],
        ['order_id', link.order_id],
        ['address', link.payment_link],
        ['expires', formatTime(link.expiry_date, local)],
        ['created', formatTime(link.created_at, local)],
        ['paid by', link.paid_payment_id ?? 'not paid'],
        ['settlement', settlementId ?? stateLabel(link.settlement?.status)],
      ] as [string, string | undefined][],
    },
    {
      title: 'Buyer',
      rows: [
        ['name', link.buyer?.name],
        ['email', link.buyer?.email],
        ['phone', link.buyer?.phone],
      ] as [string, string | undefined][],
    },
    {
      title: 'Product',
      rows: [
        ['name', link.product?.name],
        ['invoice', link.invoice?.number],
      ] as [string, string | undefined][],
    },
  ]
    .map((s) => ({ ...s, rows: s.rows.filter(([, v]) => v !== undefined && v !== '') }))
    .filter((s) => s.rows.length > 0);
  let text = renderDetail(sections);
  text += `\nPayments (${payments.length}, newest first)\n`;
  text +=
    payments.length === 0
      ? '  none yet\n'
      : renderTable(
          ['payment_id', 'status', 'amount', 'currency', 'method', 'created', 'completed'],
          payments.map((p) => [
            p.payment_id,
            theme.status(p.status),
            displayAmount(p.amount),
            displayAmount(p.amount) === undefined ? undefined : link.currency,
            p.mop_type,
            formatTime(p.created_at, local),
            formatTime(p.payment_completed_at, local),
          ]),
          color,
          { columns: [undefined, undefined, { money: true }] },
        );
  const reconcile = reconciliationLine(link);
  if (reconcile) text += `\n${theme.chalk.yellow('reconciliation:')} ${reconcile}\n`;
  return text;
}

export function linkTable(links: PaymentLink[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['link_id', 'status', 'amount', 'currency', 'reference_id', 'paid by', 'payments', 'expires'],
    links.map((l) => [
      l.link_id,
      theme.status(l.status),
      capturedAmount(l),
      capturedAmount(l) === undefined ? undefined : l.currency,
      l.reference_id,
      l.paid_payment_id && l.paid_payment_id !== l.link_id ? `${l.paid_payment_id} (reconcile)` : (l.paid_payment_id ?? '-'),
      String(l.payments?.length ?? 0),
      formatTime(l.expiry_date, local),
    ]),
    color,
    // The reference is the one to cut on a narrow terminal; who paid stays whole (reconciliation).
    { columns: [undefined, undefined, { money: true }, undefined, { priority: 10 }, { keep: true, priority: 300 }, { align: 'right', priority: 40 }, { keep: true, priority: 20 }] },
  );
}
