// pgw sandbox merchant kyc <merchant_id> <STATUS>: the gateway's review of a sub-merchant, offline
// (POST /sandbox/merchants/{id}/kyc/). A sub-merchant is created PENDING; APPROVED fires
// MERCHANT_APPROVED (and says where it went). Sandbox only (exit 6 on production); the status is checked before sending.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { KYC_STATUS_VALUES } from '../../api/schemas/sandbox.js';
import { emit, renderDetail, wantsJson } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { idArgument } from '../parse.js';
import { sandboxCall } from './call.js';

interface KycResult {
  merchant_id?: string;
  kyc_status?: string;
  previous_kyc_status?: string;
}

export async function runMerchantKyc(ctx: Context, opts: { merchantId: string; status: string; dryRun?: boolean }): Promise<void> {
  void ctx.output;
  const merchantId = idArgument('merchant_id', opts.merchantId);
  const status = opts.status.trim().toUpperCase();
  if (!(KYC_STATUS_VALUES as readonly string[]).includes(status)) {
    throw new UsageError(`"${opts.status}" is not a kyc status: use ${KYC_STATUS_VALUES.join(', ')}`);
  }
  const result = await sandboxCall<KycResult>(
    ctx,
    'sandbox merchant kyc',
    { method: 'POST', path: `/sandbox/merchants/${merchantId}/kyc/`, body: { kyc_status: status } },
    opts.dryRun,
  );
  if (!result) return;
  const approved = result.kyc_status === 'APPROVED' && result.previous_kyc_status !== 'APPROVED';
  // Where MERCHANT_APPROVED went, read back from the sandbox's events (issue 33 item 4): "sent"
  // only when an address was registered; none registered says so and how to add one.
  const { eventsAbout, whereTheyWent } = await import('../trigger/run.js');
  let lines: string[] = [];
  if (approved && !wantsJson(ctx.output)) {
    // The status has changed whatever this read does: a failure to read only loses the detail.
    lines = await eventsAbout(ctx, 'MERCHANT_APPROVED', merchantId).then(
      (events) => whereTheyWent(events, 'MERCHANT_APPROVED'),
      () => ['MERCHANT_APPROVED recorded; where it was sent: pgw events list --type MERCHANT_APPROVED'],
    );
  }
  await emit(ctx.io, ctx.output, result, () => {
    const theme = createTheme(ctx.io.colorOut);
    ctx.io.out(renderDetail([{ rows: [['merchant', result.merchant_id ?? merchantId], ['kyc_status', theme.status(result.kyc_status)], ['was', result.previous_kyc_status]] }]));
    for (const line of lines) ctx.log(line);
    // issue 42 item 4: an approved sub-merchant takes payments; the PSP acts for it with -m.
    if (result.kyc_status === 'APPROVED') ctx.log(`it can take payments now:\nnext: pgw -m ${merchantId} link create --amount 1500 --product-description '<what is sold>'`);
  });
}
