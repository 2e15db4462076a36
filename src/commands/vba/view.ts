// The readable views of virtual bank accounts and their credits (vendor 11.7.2, 11.7.4).
import { renderDetail, renderTable } from '../../output/render.js';
import { toCsv, type CsvColumn, type CsvOptions } from '../../output/csv.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { displayAmount } from '../../money.js';

/** vendor 11.7.2 (get; the list entry has no locks). */
export interface Vba {
  uid?: string;
  virtual_account_id: string;
  vba_account_name?: string;
  vba_bank_code?: string;
  vba_account_number?: string;
  vba_ifsc?: string;
  vba_status?: string;
  remitter_lock_details?: { allowed_remitters?: { account_number?: string; ifsc?: string | null }[] } | null;
  amount_lock_details?: { min_amount?: number | null; max_amount?: number | null } | null;
}

/** vendor 11.7.4 result. */
export interface VbaPayment {
  payment_id: string;
  order_id?: string;
  status?: string;
  amount?: number | null;
  payment_utr?: string;
  buyer_account_number?: string | null;
  buyer_ifsc?: string | null;
  created_at?: string;
}

function remitters(v: Vba): string | undefined {
  const list = v.remitter_lock_details?.allowed_remitters;
  if (!list) return v.remitter_lock_details === null ? 'anyone' : undefined;
  return list.map((r) => (r.ifsc ? `${r.account_number}:${r.ifsc}` : `${r.account_number}`)).join(', ');
}

function amounts(v: Vba): string | undefined {
  const lock = v.amount_lock_details;
  if (lock === undefined) return undefined;
  if (lock === null || (lock.min_amount == null && lock.max_amount == null)) return 'any';
  const min = lock.min_amount == null ? undefined : displayAmount(lock.min_amount);
  const max = lock.max_amount == null ? undefined : displayAmount(lock.max_amount);
  return min && max ? `${min} to ${max} INR` : min ? `at least ${min} INR` : `at most ${max} INR`;
}

export function vbaDetail(v: Vba, color: boolean): string {
  const theme = createTheme(color);
  return renderDetail([
    {
      title: theme.bold(`Virtual account ${v.virtual_account_id}`),
      rows: [
        ['status', v.vba_status === undefined ? undefined : theme.status(v.vba_status)],
        ['account number', v.vba_account_number],
        ['IFSC', v.vba_ifsc],
        ['bank code', v.vba_bank_code],
        ['name', v.vba_account_name],
        ['uid', v.uid],
        ['remitters', remitters(v)],
        ['amounts', amounts(v)],
      ],
    },
  ]);
}

export function vbaTable(items: Vba[], color: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['virtual_account_id', 'status', 'account_number', 'ifsc', 'name'],
    items.map((v) => [v.virtual_account_id, v.vba_status === undefined ? undefined : theme.status(v.vba_status), v.vba_account_number, v.vba_ifsc, v.vba_account_name]),
    color,
    // The account number is what a buyer is given to pay into: never cut.
    { columns: [undefined, undefined, { keep: true }] },
  );
}

const VBA_CSV: CsvColumn<Vba>[] = [
  { header: 'virtual_account_id', value: (v) => v.virtual_account_id },
  { header: 'status', value: (v) => v.vba_status },
  { header: 'account_number', value: (v) => v.vba_account_number },
  { header: 'ifsc', value: (v) => v.vba_ifsc },
  { header: 'bank_code', value: (v) => v.vba_bank_code },
  { header: 'name', value: (v) => v.vba_account_name },
  { header: 'uid', value: (v) => v.uid },
];
export const vbaCsv = (items: Vba[], options: CsvOptions): string => toCsv(VBA_CSV, items, options);

export function vbaPaymentTable(items: VbaPayment[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['payment_id', 'status', 'amount', 'utr', 'remitter_account', 'remitter_ifsc', 'created'],
    items.map((p) => [
      p.payment_id,
      p.status === undefined ? undefined : theme.status(p.status.toLowerCase()),
      p.amount == null ? undefined : displayAmount(p.amount),
      p.payment_utr || undefined,
      p.buyer_account_number ?? undefined,
      p.buyer_ifsc ?? undefined,
      formatTime(p.created_at, local),
    ]),
    color,
    // A bank account number is searched for whole, as the UTR (fit.ts keeps references whole).
    { columns: [undefined, undefined, { money: true }, undefined, { keep: true }] },
  );
}

const PAYMENT_CSV: CsvColumn<VbaPayment>[] = [
  { header: 'payment_id', value: (p) => p.payment_id },
  { header: 'order_id', value: (p) => p.order_id },
  { header: 'status', value: (p) => p.status },
  { header: 'amount', value: (p) => (p.amount == null ? undefined : displayAmount(p.amount)) },
  { header: 'payment_utr', value: (p) => p.payment_utr },
  { header: 'buyer_account_number', value: (p) => p.buyer_account_number },
  { header: 'buyer_ifsc', value: (p) => p.buyer_ifsc },
  { header: 'created_at', value: (p) => p.created_at },
];
export const vbaPaymentCsv = (items: VbaPayment[], options: CsvOptions): string => toCsv(PAYMENT_CSV, items, options);
