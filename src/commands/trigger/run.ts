// pgw trigger <EVENT>: make a webhook event happen in the sandbox by doing what makes the gateway
// send it, through the same operations a client uses (create order, the buyer's payment through the
// pay helper, mark-settled); the sandbox then POSTs the event to every registered address.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EVENT_TYPES, isEventType, type EventType } from '../../events.js';
import { apiMajor } from '../../api/schemas/version.js';
import { requireSandbox } from '../../rails.js';
import { PUBLIC_BASE_URLS } from '../../config/types.js';
import { emit, renderDetail } from '../../output/render.js';
import { amountOption } from '../parse.js';
import { buildOrderBody } from '../order/body.js';
import { orderTemplate } from '../order/template.js';
import { sandboxCall } from '../sandbox/call.js';

export interface TriggerOptions {
  event: string;
  amount?: string;
  mop?: string;
  link?: boolean;
}

/** What was made, and the event it sent: `--json` prints exactly this. */
export interface TriggerResult {
  event: EventType;
  order_id: string;
  payment_id: string;
  link_id?: string;
  settlement_id?: string;
  amount: string;
  mop_type: string;
}

const METHODS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];

export async function runTrigger(ctx: Context, opts: TriggerOptions): Promise<void> {
  const event = opts.event.trim().toUpperCase();
  if (!isEventType(event)) throw new UsageError(`"${opts.event}" is not an event the sandbox sends: use ${EVENT_TYPES.join(', ')}`);
  const amount = amountOption('--amount', opts.amount ?? '1000.00');
  const mop = (opts.mop ?? 'upi').toLowerCase();
  if (!METHODS.includes(mop)) throw new UsageError(`--mop: "${opts.mop}" is not one of ${METHODS.join(', ')}`);
  const output = ctx.output;
  const profile = await ctx.profile();
  requireSandbox(profile, 'trigger');
  if (profile.baseUrl !== undefined && sameHost(profile.baseUrl, PUBLIC_BASE_URLS.sandbox)) {
    // The gateway's own sandbox has no buyer-side helper: an order would be created and left unpaid.
    throw new UsageError("trigger needs pgw's own sandbox (profiles local and local-psp, or pgw sandbox serve): the gateway's sandbox cannot pay an order from the command line", {
      suggestion: 'pgw -p local trigger ' + event,
    });
  }

  if (profile.account === 'psp' && !profile.merchantId) {
    // A PSP creates orders for a sub-merchant only (spec part 5): say so before anything is made.
    throw new UsageError(`trigger on the PSP profile "${profile.name}" needs the sub-merchant the event is for: add -m <merchant_id>`, {
      suggestion: `pgw -p ${profile.name} merchant list`,
    });
  }

  // The order a shop would create: hosted checkout, where the buyer picks the method on the
  // gateway's page (so the order names none: a card method there would need card details).
  const major = apiMajor(profile.apiVersion) ?? 3;
  const reference = `trigger-${ctx.clock().getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const body = buildOrderBody(orderTemplate({ mode: 'hosted_payment' }, major, ctx.clock()), { amount, reference_id: reference }, major);
  const api = await ctx.api();
  const order = await api.request<{ order_id: string }>({ method: 'POST', path: '/pg/orders/', body });

  let linkId: string | undefined;
  if (opts.link) {
    const link = await sandboxCall<{ link_id: string }>(ctx, 'trigger', { method: 'POST', path: '/sandbox/payment-links/', body: { order_id: order.order_id } });
    linkId = link!.link_id;
  }
  const outcome = event === 'PAYMENT_FAILED' ? 'fail' : 'success';
  const payment = (await sandboxCall<{ payment_id: string }>(ctx, 'trigger', {
    method: 'POST',
    path: `/sandbox/orders/${order.order_id}/pay/`,
    body: { outcome, mop_type: mop },
  }))!;

  let settlementId: string | undefined;
  if (event === 'PAYMENT_SETTLED') {
    const settled = await api.request<{ settlement_id: string }>({ method: 'POST', path: '/pg/settlements/mark-settled/', body: { payment_uids: [payment.payment_id] } });
    settlementId = settled.settlement_id;
  }

  const result: TriggerResult = {
    event,
    order_id: order.order_id,
    payment_id: payment.payment_id,
    ...(linkId ? { link_id: linkId } : {}),
    ...(settlementId ? { settlement_id: settlementId } : {}),
    amount,
    mop_type: mop,
  };
  await emit(ctx.io, output, result, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['event', result.event],
            ['order_id', result.order_id],
            ['payment_id', result.payment_id],
            ['link_id', result.link_id],
            ['settlement_id', result.settlement_id],
            ['amount', `${amount} INR`],
            ['method', mop],
          ].filter(([, v]) => v !== undefined) as [string, string][],
        },
      ]),
    );
    const also = event === 'PAYMENT_SETTLED' ? ' (and PAYMENT_CAPTURED for the payment)' : '';
    ctx.io.err(`${event} sent${also} to the registered addresses (pgw sandbox webhook list; pgw listen receives them)\n`);
    if (settlementId) ctx.io.err(`next: pgw settle get ${settlementId}\n`);
  });
}

function sameHost(a: string, b: string): boolean {
  try {
    return new URL(a).hostname.toLowerCase() === new URL(b).hostname.toLowerCase();
  } catch {
    return false;
  }
}
