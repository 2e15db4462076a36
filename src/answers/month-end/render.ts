// The month-end report for a person (a table of rows, then the settlements and what is unsettled)
// and for a spreadsheet (RFC 4180, one row per movement; the summary goes to stderr). Loaded for
// table and CSV output only: JSON is the report object as built.
import { renderTable } from '../../output/render.js';
import { toCsv, type CsvColumn, type CsvOptions } from '../../output/csv.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { stateLabel } from '../../settlement-states.js';
import { Money, formatAmount } from '../../money.js';
import type { MonthReport, ReportRow, SettlementLine } from './report.js';

/** The CSV's columns: the rows' keys, in the JSON's order. */
export const REPORT_KEYS: readonly (keyof ReportRow)[] = [
  'type',
  'id',
  'payment_id',
  'reference_id',
  'invoice_number',
  'created_at',
  'mop_type',
  'currency',
  'amount',
  'fee',
  'gst',
  'net',
  'debit_amount',
  'settlement_id',
  'utr_number',
  'settled_at',
  'settlement_status',
  'status',
];

const COLUMNS: CsvColumn<ReportRow>[] = REPORT_KEYS.map((key) => ({ header: key, value: (r: ReportRow) => r[key] }));

export function reportCsv(report: MonthReport, options: CsvOptions): string {
  return toCsv(COLUMNS, report.rows, options);
}

/**
 * The rows, fitted to the terminal: the ID, its kind, what it moved (a debit as a negative amount:
 * the CSV and JSON keep amount and debit_amount apart), its net and its state stay longest; the
 * payment's own references and the bank's give way first (`--wide` shows all).
 */
export function rowsTable(report: MonthReport, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['type', 'id', 'amount', 'net', 'settlement', 'settlement_id', 'fee', 'gst', 'currency', 'created', 'payment_id', 'reference', 'invoice', 'method', 'utr', 'settled'],
    report.rows.map((r) => [
      r.type,
      r.id,
      r.amount ?? (r.debit_amount === null ? null : formatAmount(new Money(r.debit_amount).neg())),
      r.net,
      theme.status(stateLabel(r.settlement_status)),
      r.settlement_id,
      r.fee,
      r.gst,
      r.currency,
      formatTime(r.created_at, local),
      r.type === 'capture' || r.type === 'payment' ? undefined : r.payment_id,
      r.reference_id,
      r.invoice_number,
      r.mop_type,
      r.utr_number,
      formatTime(r.settled_at, local),
    ]),
    color,
    {
      columns: [
        { priority: 19 },
        { keep: true, priority: 20 },
        { money: true, priority: 18 },
        { money: true, priority: 17 },
        // A state is never cut: READY_FOR_SETTLEM… would read as another.
        { keep: true, priority: 16 },
        { keep: true, priority: 15 },
        { money: true, priority: 9 },
        { money: true, priority: 8 },
        { priority: 10 },
        { priority: 11 },
        { keep: true, priority: 7 },
        { priority: 6 },
        { priority: 5 },
        { priority: 4 },
        { priority: 3 },
        { priority: 2 },
      ],
    },
  );
}

/** "reconciles ✓", or the difference (in red): the line a finance person looks for. */
function verdict(s: SettlementLine, theme: ReturnType<typeof createTheme>): string {
  if (s.settlement_amount === null) return theme.red('no amount stated');
  return s.reconciles ? theme.chalk.green('reconciles ✓') : theme.red(`differs by ${s.difference}`);
}

/** Per settlement: the gateway's amount, this report's rows in it, its rows outside the window, and the verdict. */
export function settlementsTable(report: MonthReport, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['settlement_id', 'completed', 'amount', 'these rows', 'other rows', 'check', 'utr'],
    report.settlements.map((s) => [
      s.settlement_id,
      formatTime(s.completed_at, local),
      s.settlement_amount,
      `${s.report_net} (${s.report_rows})`,
      `${s.other_net} (${s.other_rows})`,
      verdict(s, theme),
      s.utr_number,
    ]),
    color,
    { columns: [{ keep: true, priority: 9 }, { priority: 4 }, { money: true, priority: 8 }, { align: 'right', priority: 7 }, { align: 'right', priority: 6 }, { priority: 8.5 }, { priority: 2 }] },
  );
}

/** "unsettled: 3 captures 4500.00 − 1 refund 100.00 − 0 chargebacks 0.00 = 4400.00". */
export function unsettledLine(report: MonthReport): string {
  const u = report.unsettled;
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return `unsettled: ${n(u.captures, 'capture')} ${u.captured} − ${n(u.refunds, 'refund')} ${u.refunded} − ${n(u.chargebacks, 'chargeback')} ${u.charged_back} = ${u.amount}`;
}

/** The summary under the rows (stdout in a table; stderr beside a CSV). */
export function summaryText(report: MonthReport, color: boolean, local: boolean): string {
  const head = report.settlements.length === 0 ? 'no settlement completed in the window or holding its rows\n' : settlementsTable(report, color, local);
  return `${head}${unsettledLine(report)}\n`;
}
