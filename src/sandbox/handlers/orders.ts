// POST /pg/orders/ and PATCH /pg/orders/{order_id}/ (spec 4.1, 4.2).
import { makeOrderCreateChecks, orderUpdateSchema, type Clock, type OrderCreate } from '../../api/schemas/orders.js';
import type { Checked } from '../../api/schemas/common.js';
import { acsTemplate, upiIntentUri } from '../acs.js';
import type { Handler, Reply, RequestContext } from './types.js';
import type { OrderRow } from '../store.js';
import { parseBody } from './util.js';
import { ORDER_VALIDATION } from '../errors.js';
import { intentExpiresAt } from '../store/orders.js';

// Built once per server clock: the sandbox's clock (not the system's) decides card expiry. Compiled
// for valid bodies (common.ts `Checked`): validation was about a quarter of a create's CPU (issue 23).
const schemas = new WeakMap<Clock, ReturnType<typeof makeOrderCreateChecks>>();

function schemaFor(ctx: RequestContext): Checked<OrderCreate> {
  let s = schemas.get(ctx.now);
  if (!s) {
    s = makeOrderCreateChecks({ now: ctx.now });
    schemas.set(ctx.now, s);
  }
  // spec part 9 / 2.1: 1.x and 2.x take the earlier variant.
  return ctx.apiMajor === 3 ? s.v3 : s.legacy;
}

/**
 * vendor N1: 201 on success (the newest v3 file; the spec states no status). Validated and
 * authorised at once; the write joins the creates that arrive with it in one transaction (group
 * commit, group-commit.ts), and the answer is built once that has committed.
 */
export const createOrder: Handler = (ctx) => {
  // vendor N2: every create-order refusal is 400 ERR_ORDER_002.
  const input = parseBody(schemaFor(ctx), ctx.body, ORDER_VALIDATION);
  const merchantId = ctx.caller.acting({ pspMustName: true });
  return ctx.store.createOrderGrouped(merchantId, input, ctx.apiVersion).then((order) => createdReply(ctx, order));
};

function createdReply(ctx: RequestContext, order: OrderRow): Reply {
  if (order.collection_mode === 'hosted_payment') {
    return { status: 201, message: 'checkout session created', data: { order_id: order.order_id, session_id: order.session_id } };
  }
  if (order.mop_type === 'upi' && order.upi_flow_type === 'intent') {
    const merchant = ctx.store.merchant(order.merchant_id)!;
    const intent_uri = upiIntentUri({
      merchantId: merchant.merchant_id,
      merchantName: merchant.brand_name,
      orderId: order.order_id,
      referenceId: order.reference_id,
      amount: order.amount,
      currency: order.currency,
    });
    // vendor N7 (newest v3 orders file): expires_at, creation + 5 minutes in UTC; and, in a
    // sandbox only, test_simulator_url: a page that completes the intent without a UPI app (the
    // buyer page of this order's session, on the address buyers reach the sandbox at).
    const data = {
      order_id: order.order_id,
      intent_uri,
      expires_at: intentExpiresAt(order),
      test_simulator_url: `${ctx.publicBaseUrl}/checkout/${encodeURIComponent(order.session_id!)}/`,
    };
    return { status: 201, message: 'S2S UPI request created', data };
  }
  if (order.mop_type === 'upi') {
    const to = order.vpa ?? "the buyer's UPI app";
    return { status: 201, message: 'S2S UPI request created', data: { order_id: order.order_id, message: `Collect request sent to ${to}` } };
  }
  return {
    status: 201,
    message: 'S2S card payment request created',
    data: { order_id: order.order_id, acs_template: acsTemplate(ctx.publicBaseUrl, order.acs_token!, order.order_id) },
  };
}

/** spec 4.2: the response's data repeats the envelope. */
export const updateOrder: Handler = (ctx) => {
  const patch = parseBody(orderUpdateSchema, ctx.body, ORDER_VALIDATION);
  const result = ctx.store.updateOrder(ctx.caller.scope, ctx.params.order_id!, patch);
  const message = 'order updated successfully';
  return { message, data: { success: true, message, data: result } };
};
