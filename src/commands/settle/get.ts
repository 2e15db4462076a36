// pgw settle get <settlement_id...>: GET /pg/settlements/{id}/ (spec 4.5, Get Settlement shape of
// 2.9: amounts are JSON numbers). One: the figures and the transactions table with totals; several:
// one row each. JSON is the gateway's data unchanged.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import { Money, formatAmount, parseAmount, type MoneyValue } from '../../money.js';
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { amount, money, withCurrency } from './amounts.js';
import { equationLines, settlementEquation } from './equation.js';

export interface SettlementTransaction {
  settlement_type?: string;
  transaction_id?: string;
  transaction_amount?: number;
  merchant_service_fee?: number;
  merchant_service_tax?: number;
  merchant_net_amount?: number;
  mop_type?: string | null;
  transaction_currency?: string;
  forex_rate?: number;
}

export interface Settlement {
  settlement_id: string;
  utr_number?: string;
  settlement_completed_date?: string;
  forex_rate?: number;
  settlement_amount?: number;
  settlement_currency?: string;
  transactions?: SettlementTransaction[];
}

export async function runSettleGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  await runLookup(ctx, opts, 'settlement_id', (id) => api.request<Settlement>({ method: 'GET', path: `/pg/settlements/${id}/` }), {
    detail: (s) => settlementDetail(s, ctx.io.colorOut, ctx.io.stdoutIsTTY),
    table: (ss) => settlementTable(ss, ctx.io.colorOut, ctx.io.stdoutIsTTY),
  });
}


function sum(values: (number | undefined)[]): MoneyValue {
  return values.reduce<MoneyValue>((total, v) => total.plus(money(v) ?? 0), new Money(0));
}

export function settlementDetail(s: Settlement, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  const txs = s.transactions ?? [];
  const currency = s.settlement_currency ?? '';
  const head = renderDetail([
    {
      title: theme.bold(`Settlement ${s.settlement_id}`),
      rows: [
        ['settlement_amount', amount(s.settlement_amount) ? `${amount(s.settlement_amount)} ${currency}`.trim() : undefined],
        ['forex_rate', s.forex_rate === undefined ? undefined : String(s.forex_rate)],
        ['utr_number', s.utr_number],
        ['completed', formatTime(s.settlement_completed_date, local)],
        // Two counts, each named for what it counts: settle list's number_of_transactions counts captures.
        ['captures', String(countOf(txs, 'capture'))],
        ['rows', rowsLine(txs)],
      ],
    },
  ]);
  if (txs.length === 0) return head;
  // Money carries its currency: in the header when every transaction shares one, else per row.
  const currencies = new Set(txs.map((t) => t.transaction_currency ?? currency));
  const one = currencies.size === 1 ? [...currencies][0] : undefined;
  const unit = one ? ` ${one}` : '';
  const rows = txs.map((t) => [
    t.settlement_type,
    t.transaction_id,
    one ? amount(t.transaction_amount) : withCurrency(amount(t.transaction_amount), t.transaction_currency),
    amount(t.merchant_service_fee),
    amount(t.merchant_service_tax),
    amount(t.merchant_net_amount),
    t.mop_type,
  ]);
  // Refund and chargeback rows carry a positive amount and a negative net: only captures add up
  // to a gross amount, while fee, GST and net total over every row.
  const captures = txs.filter((t) => (t.settlement_type ?? 'capture') === 'capture');
  const netTotal = sum(txs.map((t) => t.merchant_net_amount));
  rows.push([
    'total',
    '',
    formatAmount(sum(captures.map((t) => t.transaction_amount))),
    formatAmount(sum(txs.map((t) => t.merchant_service_fee))),
    formatAmount(sum(txs.map((t) => t.merchant_service_tax))),
    formatAmount(netTotal),
    '',
  ]);
  // `gst`, as settle calc and settle mark name it (the API calls it merchant_service_tax).
  const table = renderTable(['type', 'transaction_id', `amount${unit}`, 'fee', 'gst', `net${unit}`, 'method'], rows, color, {
    columns: [{ priority: 40 }, undefined, { money: true }, { money: true }, { money: true }, { money: true }, { priority: 30 }],
  });
  const lines = equationLines(settlementEquation(txs), money(s.settlement_amount), { ok: (t) => theme.chalk.green(t), bad: (t) => theme.red(t) });
  return `${head}\n${table}${lines.join('\n')}\n`;
}

const typeOf = (t: SettlementTransaction) => (t.settlement_type ?? 'capture').toLowerCase();
const countOf = (txs: SettlementTransaction[], type: string) => txs.filter((t) => typeOf(t) === type).length;

/** "13: 10 captures, 2 refunds, 1 chargeback" (every row of the settlement, by kind). */
function rowsLine(txs: SettlementTransaction[]): string {
  const kinds = new Map<string, number>();
  for (const t of txs) kinds.set(typeOf(t), (kinds.get(typeOf(t)) ?? 0) + 1);
  const parts = [...kinds].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  return parts.length ? `${txs.length}: ${parts.join(', ')}` : '0';
}

export function settlementTable(settlements: Settlement[], color: boolean, local: boolean): string {
  return renderTable(
    ['settlement_id', 'amount', 'currency', 'captures', 'rows', 'utr_number', 'completed'],
    settlements.map((s) => [
      s.settlement_id,
      amount(s.settlement_amount),
      amount(s.settlement_amount) === undefined ? undefined : s.settlement_currency,
      countOf(s.transactions ?? [], 'capture'),
      s.transactions?.length ?? 0,
      s.utr_number,
      formatTime(s.settlement_completed_date, local),
    ]),
    color,
    { columns: [undefined, { money: true }, undefined, { align: 'right', priority: 20 }, { align: 'right', priority: 19 }] },
  );
}
