// pgw trigger <EVENT>: make a webhook event happen in the sandbox by doing what makes the gateway
// send it, through the same operations a client uses (create order, the buyer's payment through the
// pay helper, mark-settled, a refund and its simulate-status, a sub-merchant's approval), on new
// objects or on existing ones (--order, --payment, --refund, --merchant). It then asks the
// sandbox's delivery log where the event went, and says so: to which addresses, or to none.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { EventType } from '../../events.js';
import { apiMajor } from '../../api/schemas/version.js';
import { requireSandbox } from '../../rails.js';
import { PUBLIC_BASE_URLS } from '../../config/types.js';
import { emit, renderDetail } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { amountOption } from '../amount-option.js';
import { amountAsJsonValue } from '../../money.js';
import { buildOrderBody } from '../order/body.js';
import { orderTemplate } from '../order/template.js';
import { sandboxCall } from '../sandbox/call.js';
import { eventTypeArgument } from './names.js';

export interface TriggerOptions {
  event: string;
  amount?: string;
  mop?: string;
  link?: boolean;
  order?: string;
  payment?: string;
  refund?: string;
  merchant?: string;
  refundStatus?: string;
}

/** Where an event went, from the sandbox's delivery log. */
export interface TriggeredEvent {
  id: string;
  event_type: string;
  /** The addresses it is delivered to; empty when none is registered. */
  targets: string[];
}

/** What was made, and the event it sent: `--json` prints exactly this. */
export interface TriggerResult {
  event: EventType;
  order_id?: string;
  payment_id?: string;
  link_id?: string;
  settlement_id?: string;
  refund_id?: string;
  merchant_id?: string;
  amount?: string;
  mop_type?: string;
  /** The events recorded for what was made (issue 21 item 15: where each went). */
  events: TriggeredEvent[];
}

const METHODS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];
/** vendor 2.4: the simulate-status values that send REFUND_STATUS_UPDATE. */
export const REFUND_UPDATE_STATUSES = ['PROCESSING', 'REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND'];
const REFUND_EVENTS: Partial<Record<EventType, string>> = { PAYMENT_REFUNDED: 'REFUNDED', REFUND_FAILED: 'FAILED' };

/** Which of --order, --payment, --refund, --merchant each event can start from. */
const STARTS: Record<EventType, readonly ('order' | 'payment' | 'refund' | 'merchant')[]> = {
  PAYMENT_SUCCESSFUL: ['order'],
  PAYMENT_FAILED: ['order'],
  PAYMENT_SETTLED: ['order', 'payment'],
  PAYMENT_REFUNDED: ['order', 'payment', 'refund'],
  REFUND_FAILED: ['order', 'payment', 'refund'],
  REFUND_STATUS_UPDATE: ['order', 'payment', 'refund'],
  MERCHANT_APPROVED: ['merchant'],
  VERIFICATION_NEEDED: ['order', 'payment'],
  PAYMENT_UNDER_REVIEW: ['order', 'payment'],
  LRS_VERIFICATION_NEEDED: ['order', 'payment'],
  VERIFICATION_STATUS: ['order', 'payment'],
  PAYMENT_DETAILS_MISSING: ['order', 'payment'],
};

function checkFlags(event: EventType, opts: TriggerOptions): void {
  const given = (['order', 'payment', 'refund', 'merchant'] as const).filter((k) => opts[k] !== undefined);
  if (given.length > 1) throw new UsageError(`give one of ${given.map((g) => `--${g}`).join(', ')}, not several`);
  for (const g of given) {
    if (!STARTS[event].includes(g)) {
      throw new UsageError(`--${g} does not apply to ${event}${STARTS[event].length > 0 ? `: it starts from ${STARTS[event].map((s) => `--${s}`).join(' or ')}` : ''}`);
    }
  }
  const startsLater = opts.payment !== undefined || opts.refund !== undefined || opts.merchant !== undefined;
  if (startsLater && (opts.amount !== undefined || opts.mop !== undefined || opts.link)) {
    throw new UsageError('--amount, --mop and --link make a new order and payment: leave them out with an existing --payment, --refund or --merchant');
  }
  if (opts.refundStatus !== undefined && event !== 'REFUND_STATUS_UPDATE') throw new UsageError('--refund-status applies only to REFUND_STATUS_UPDATE');
  if (event === 'MERCHANT_APPROVED' && (opts.amount !== undefined || opts.mop !== undefined || opts.link)) {
    throw new UsageError('--amount, --mop and --link do not apply to MERCHANT_APPROVED');
  }
}

export async function runTrigger(ctx: Context, opts: TriggerOptions): Promise<void> {
  const event = eventTypeArgument(opts.event);
  checkFlags(event, opts);
  const amount = opts.amount === undefined ? undefined : amountOption('--amount', opts.amount);
  const mop = (opts.mop ?? 'upi').toLowerCase();
  if (!METHODS.includes(mop)) throw new UsageError(`--mop: "${opts.mop}" is not one of ${METHODS.join(', ')}`);
  const refundStatus = (opts.refundStatus ?? 'PROCESSING').toUpperCase();
  if (!REFUND_UPDATE_STATUSES.includes(refundStatus)) throw new UsageError(`--refund-status: "${opts.refundStatus}" is not one of ${REFUND_UPDATE_STATUSES.join(', ')}`);
  const ids = {
    order: opts.order === undefined ? undefined : idArgument('--order', opts.order),
    payment: opts.payment === undefined ? undefined : idArgument('--payment', opts.payment),
    refund: opts.refund === undefined ? undefined : idArgument('--refund', opts.refund),
    merchant: opts.merchant === undefined ? undefined : idArgument('--merchant', opts.merchant),
  };

  const output = ctx.output;
  const profile = await ctx.profile();
  requireSandbox(profile, 'trigger');
  if (profile.baseUrl !== undefined && sameHost(profile.baseUrl, PUBLIC_BASE_URLS.sandbox)) {
    // The gateway's own sandbox has no buyer-side helper: an order would be created and left unpaid.
    throw new UsageError("trigger needs pgw's own sandbox (profiles local and local-psp, or pgw sandbox serve): the gateway's sandbox cannot pay an order from the command line", {
      suggestion: 'pgw -p local trigger ' + event,
    });
  }
  if (event === 'MERCHANT_APPROVED') {
    if (profile.account !== 'psp' && !profile.merchantId && profile.baseUrl === undefined) {
      throw new UsageError('MERCHANT_APPROVED is about a sub-merchant: trigger it on a PSP profile, e.g. pgw -p local-psp trigger MERCHANT_APPROVED');
    }
  } else if (profile.account === 'psp' && !profile.merchantId) {
    // A PSP acts on /pg/ operations only for a sub-merchant (spec part 5, vendor N4): say so before anything is made.
    throw new UsageError(`trigger on the PSP profile "${profile.name}" needs the sub-merchant the event is for: add -m <merchant_id>`, {
      suggestion: `pgw -p ${profile.name} merchant list`,
    });
  }

  const api = await ctx.api();
  const result: Omit<TriggerResult, 'events'> = { event };

  if (event === 'MERCHANT_APPROVED') {
    result.merchant_id = ids.merchant ?? (await newSubMerchant(ctx));
    await sandboxCall(ctx, 'trigger', { method: 'POST', path: `/sandbox/merchants/${result.merchant_id}/kyc/`, body: { kyc_status: 'APPROVED' } });
  } else {
    let paymentId = ids.payment;
    if (ids.refund !== undefined) {
      const refund = await api.request<{ payment_id: string }>({ method: 'GET', path: `/pg/refunds/${ids.refund}/` });
      result.refund_id = ids.refund;
      paymentId = refund.payment_id;
    }
    if (event === 'PAYMENT_DETAILS_MISSING') {
      // 11.10 P8: the retired event is sent only under the account's compatibility flag; asking for it turns it on.
      await sandboxCall(ctx, 'trigger', { method: 'POST', path: '/sandbox/compat/', body: { payment_details_missing: true } });
      ctx.log('PAYMENT_DETAILS_MISSING (retired by the gateway) is now sent for this account; off: pgw api POST /sandbox/compat/ -d \'{"payment_details_missing":false}\'');
      if (paymentId === undefined && ids.order === undefined) {
        // A bank transfer brings no buyer address, product or invoice: the details the event names.
        const [vba] = await api.request<{ virtual_account_id: string }[]>({ method: 'POST', path: '/pg/vba/', body: {} });
        const utr = `TRIG${ctx.clock().getTime().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
        const credit = await api.request<{ payment_id: string; order_id: string }>({
          method: 'POST',
          path: '/pg/vba/simulate-transfer/',
          body: { virtual_account_id: vba!.virtual_account_id, vba_simulation: { amount: amountAsJsonValue(amount ?? '1000.00'), utr, remitter_name: 'Sandbox Remitter', remitter_account: '000123456789', remitter_ifsc: 'TEST0000001' } },
        });
        paymentId = credit.payment_id;
        result.order_id = credit.order_id;
        result.amount = amount ?? '1000.00';
        result.mop_type = 'bank_transfer';
      }
    }
    if (paymentId === undefined) {
      // The order a shop would create: hosted checkout, where the buyer picks the method on the
      // gateway's page (so the order names none: a card method there would need card details).
      let orderId = ids.order;
      if (orderId === undefined) {
        const major = apiMajor(profile.apiVersion) ?? 3;
        const reference = `trigger-${ctx.clock().getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
        // Dates in the order (the invoice's) are the sandbox's today, which `pgw sandbox clock` may have moved.
        const { sandboxNow } = await import('../sandbox/clock.js');
        const body = buildOrderBody(orderTemplate({ mode: 'hosted_payment' }, major, await sandboxNow(ctx)), { amount: amount ?? '1000.00', reference_id: reference }, major);
        orderId = (await api.request<{ order_id: string }>({ method: 'POST', path: '/pg/orders/', body })).order_id;
        result.amount = amount ?? '1000.00';
      }
      result.order_id = orderId;
      if (opts.link) {
        const link = await sandboxCall<{ link_id: string }>(ctx, 'trigger', { method: 'POST', path: '/sandbox/payment-links/', body: { order_id: orderId } });
        result.link_id = link!.link_id;
      }
      const outcome = event === 'PAYMENT_FAILED' ? 'fail' : 'success';
      const payment = (await sandboxCall<{ payment_id: string; amount?: string }>(ctx, 'trigger', {
        method: 'POST',
        path: `/sandbox/orders/${orderId}/pay/`,
        body: { outcome, mop_type: mop },
      }))!;
      paymentId = payment.payment_id;
      result.mop_type = mop;
    }
    result.payment_id = paymentId;

    if (COMPLIANCE_EVENTS.includes(event)) {
      await causeComplianceEvent(ctx, event, paymentId);
    } else if (event === 'PAYMENT_SETTLED') {
      const settled = await api.request<{ settlement_id: string }>({ method: 'POST', path: '/pg/settlements/mark-settled/', body: { payment_uids: [paymentId] } });
      result.settlement_id = settled.settlement_id;
    } else if (event === 'PAYMENT_REFUNDED' || event === 'REFUND_FAILED' || event === 'REFUND_STATUS_UPDATE') {
      if (result.refund_id === undefined) {
        const refund = await api.request<{ refund_id: string }>({ method: 'POST', path: '/pg/refunds/', body: { payment_id: paymentId } });
        result.refund_id = refund.refund_id;
      }
      const status = REFUND_EVENTS[event] ?? refundStatus;
      await api.request({ method: 'POST', path: `/pg/refunds/${result.refund_id}/simulate-status/`, body: { status } });
    }
  }

  const about = result.settlement_id ?? result.refund_id ?? result.payment_id ?? result.merchant_id!;
  const events = await eventsAbout(ctx, event, about);
  const full: TriggerResult = { ...result, events };
  await emit(ctx.io, output, full, () => {
    const rows: [string, string | undefined][] = [
      ['event', event],
      ['order_id', full.order_id],
      ['payment_id', full.payment_id],
      ['link_id', full.link_id],
      ['settlement_id', full.settlement_id],
      ['refund_id', full.refund_id],
      ['merchant_id', full.merchant_id],
      ['amount', full.amount === undefined ? undefined : `${full.amount} INR`],
      ['method', full.mop_type],
    ];
    ctx.io.out(renderDetail([{ rows: rows.filter(([, v]) => v !== undefined) as [string, string][] }]));
    for (const line of whereTheyWent(events, event)) ctx.io.err(`${line}\n`);
    if (full.settlement_id) ctx.io.err(`next: pgw settle get ${full.settlement_id}\n`);
  });
}

/** vendor 11.4: the compliance events, caused through verification (store/verification-review.ts: the review's outcomes). */
const COMPLIANCE_EVENTS: readonly EventType[] = ['VERIFICATION_NEEDED', 'PAYMENT_UNDER_REVIEW', 'LRS_VERIFICATION_NEEDED', 'VERIFICATION_STATUS', 'PAYMENT_DETAILS_MISSING'];
/** The LRS purpose code a trigger declares (education, vendor 11.6) for the LRS events. */
const TRIGGER_LRS = { business_model: 'B2C', purpose_code: 'S0305' };

/**
 * The steps the gateway's review takes, through the sandbox's simulate-verification (11.10 P2)
 * and the verification submit: open the verification (VERIFICATION_NEEDED); declare an LRS purpose
 * code (LRS_VERIFICATION_NEEDED); review it (PAYMENT_UNDER_REVIEW); approve it (VERIFICATION_STATUS).
 * PAYMENT_DETAILS_MISSING: the retired event, sent on opening when the account's compatibility flag is on.
 */
async function causeComplianceEvent(ctx: Context, event: EventType, paymentId: string): Promise<void> {
  const api = await ctx.api();
  const simulate = (body: Record<string, unknown>) => api.request({ method: 'POST', path: `/pg/payments/${paymentId}/simulate-verification/`, body });
  const current = await api.request<{ settlement_status: string; business_model: string | null }>({ method: 'GET', path: `/pg/payments/${paymentId}/verification/` });
  if (event === 'PAYMENT_DETAILS_MISSING' && current.settlement_status === 'ACTION_REQUIRED' && current.business_model === null) return; // a fresh credit sent it
  if (current.settlement_status !== 'ACTION_REQUIRED' || event === 'VERIFICATION_NEEDED' || event === 'PAYMENT_DETAILS_MISSING') {
    // From a verification that is open already, ON_HOLD and back makes the gateway ask again.
    if (current.settlement_status === 'ACTION_REQUIRED' && (event === 'VERIFICATION_NEEDED' || event === 'PAYMENT_DETAILS_MISSING')) await simulate({ status: 'ON_HOLD' });
    await simulate({ status: 'ACTION_REQUIRED' });
  }
  if (event === 'VERIFICATION_NEEDED' || event === 'PAYMENT_DETAILS_MISSING') return;
  if (current.business_model === null) await api.request({ method: 'POST', path: `/pg/payments/${paymentId}/verification/`, body: { fields: TRIGGER_LRS } });
  if (event === 'LRS_VERIFICATION_NEEDED') return;
  await simulate({ status: 'UNDER_REVIEW' });
  if (event === 'VERIFICATION_STATUS') await simulate({ status: 'VERIFIED', verdict: 'APPROVED' });
}

/** The events of this type the sandbox recorded about `id` just now, newest first. */
export async function eventsAbout(ctx: Context, event: EventType, id: string): Promise<TriggeredEvent[]> {
  const found = await sandboxCall<TriggeredEvent[]>(ctx, 'trigger', {
    method: 'GET',
    path: '/sandbox/events/',
    query: { event_type: event, about: id, limit: '5' },
  });
  return (found ?? []).slice(0, 1).map((e) => ({ id: e.id, event_type: e.event_type, targets: e.targets }));
}

/** issue 21 item 15: say where the event went, and never claim a delivery nobody receives. */
export function whereTheyWent(events: TriggeredEvent[], event: EventType): string[] {
  if (events.length === 0) return [`${event}: the sandbox recorded no event (pgw events list shows what it sent)`];
  return events.map((e) =>
    e.targets.length === 0
      ? `${e.event_type} ${e.id} recorded, but no webhook address is registered for this account: it was sent nowhere (run pgw listen, or pgw sandbox webhook add <url>)`
      : `${e.event_type} ${e.id} sent to ${e.targets.length === 1 ? e.targets[0] : `${e.targets.length} addresses (${e.targets.join(', ')})`}; attempts: pgw events get ${e.id}`,
  );
}

/** A sub-merchant to approve: the PSP creates one (pending until approved). */
async function newSubMerchant(ctx: Context): Promise<string> {
  const api = await ctx.api();
  const { MERCHANT_TEMPLATE } = await import('../merchant/template.js');
  const brand = `Trigger ${ctx.clock().getTime().toString(36)}`;
  const body = { ...MERCHANT_TEMPLATE, company_details: { ...MERCHANT_TEMPLATE.company_details, brand_name: brand, legal_name: `${brand} Private Limited` } };
  const created = await api.request<{ id?: string; merchant_id?: string }>({ method: 'POST', path: '/partners/merchants/', body });
  return created.merchant_id ?? created.id!;
}

function sameHost(a: string, b: string): boolean {
  try {
    return new URL(a).hostname.toLowerCase() === new URL(b).hostname.toLowerCase();
  } catch {
    return false;
  }
}

