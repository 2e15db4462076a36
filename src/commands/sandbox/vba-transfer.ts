// pgw sandbox vba transfer <virtual_account_id>: POST /pg/vba/simulate-transfer/ (vendor 11.7.6),
// money arriving on a virtual bank account as a bank transfer would bring it. Sandbox only (exit
// 6 on production, nothing sent). The remitter fields the vendor requires get test defaults.
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { dayOption, gatewayDay } from '../dates.js';
import { validate } from '../../api/schemas/common.js';
import { vbaTransferSchema } from '../../api/schemas/vba.js';
import { amountOption } from '../amount-option.js';
import { amountAsJsonValue } from '../../money.js';
import { emit, renderDetail } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { idArgument } from '../parse.js';
import { sandboxCall } from './call.js';
import { stateLabel } from '../../settlement-states.js';

/** Who sends the money when no --remitter-* flag says (a test sender, not a real bank's). */
export const DEFAULT_REMITTER = { name: 'Sandbox Remitter', account: '000123456789', ifsc: 'TEST0000001' } as const;

export interface VbaTransferOptions {
  id: string;
  amount?: string;
  utr?: string;
  remitterName?: string;
  remitterAccount?: string;
  remitterIfsc?: string;
  remarks?: string;
  paymentDate?: string;
  bankTxn?: string;
  dryRun?: boolean;
}

interface TransferResult {
  payment_id: string;
  order_id?: string;
  reference_id?: string;
  status?: string;
  settlement_status?: string;
  status_message?: string | null;
}

/** The request body of 11.7.6, checked with the sandbox's schema; no I/O. */
export function buildVbaTransferBody(opts: VbaTransferOptions): Record<string, unknown> {
  const id = idArgument('virtual_account_id', opts.id);
  if (opts.amount === undefined) throw new UsageError('--amount is required (rupees, e.g. 25000)');
  if (opts.utr === undefined) throw new UsageError('--utr is required: the transfer\'s bank reference, unique per account');
  // issue 42 item 3: pgw's flags take dates one way, YYYY-MM-DD; the gateway's payment_date is
  // DD/MM/YYYY (vendor 11.7.6), so pgw converts it (and says so in help).
  const paymentDate = opts.paymentDate === undefined ? undefined : gatewayDay(dayOption('--payment-date', opts.paymentDate)!);
  const sim: Record<string, unknown> = {
    // vendor 11.7.6: a JSON number of rupees.
    amount: amountAsJsonValue(amountOption('--amount', opts.amount)), // vendor 11.7.6: a JSON number of rupees, from the exact text
    utr: opts.utr.trim(),
    remitter_name: opts.remitterName ?? DEFAULT_REMITTER.name,
    remitter_account: opts.remitterAccount ?? DEFAULT_REMITTER.account,
    remitter_ifsc: (opts.remitterIfsc ?? DEFAULT_REMITTER.ifsc).toUpperCase(),
  };
  if (opts.remarks !== undefined) sim.remarks = opts.remarks;
  if (paymentDate !== undefined) sim.payment_date = paymentDate;
  if (opts.bankTxn !== undefined) sim.bank_txn_number = opts.bankTxn;
  const body = { virtual_account_id: id, vba_simulation: sim };
  const checked = validate(vbaTransferSchema, body);
  if (!checked.ok) throw new ValidationError(checked.problems, 'invalid transfer, nothing was sent');
  return body;
}

export async function runVbaTransfer(ctx: Context, opts: VbaTransferOptions): Promise<void> {
  const body = buildVbaTransferBody(opts);
  const result = await sandboxCall<TransferResult>(ctx, 'sandbox vba transfer', { method: 'POST', path: '/pg/vba/simulate-transfer/', body }, opts.dryRun);
  if (!result) return;
  const theme = createTheme(ctx.io.colorOut);
  await emit(ctx.io, ctx.output, result, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['payment_id', result.payment_id],
            ['order_id', result.order_id],
            ['reference_id', result.reference_id],
            ['status', result.status === undefined ? undefined : `${theme.status(result.status)}${result.status_message ? `  ${result.status_message}` : ''}`],
            ['settlement', stateLabel(result.settlement_status)],
          ],
        },
      ]),
    );
    // A refused credit is still recorded (vendor 11.7.6): say why on stderr, exit 0.
    if (result.status === 'failed') ctx.log(`the credit was recorded as failed: ${result.status_message ?? 'refused by the account'}`);
    // issue 42 item 4: a captured credit owes its verification (vendor 11.7.7: ACTION_REQUIRED).
    else if (result.payment_id) ctx.log(`the credit owes its verification (business_model and purpose_code first):\nnext: pgw payment verification ${result.payment_id}`);
  });
}
