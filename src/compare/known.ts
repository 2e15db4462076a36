// Differences pgw's sandbox has on purpose: where the vendor's docs contradict themselves or the
// vendor's own client, docs/sandbox.md records which side the sandbox takes, and a gateway that
// takes the other is not drift. Each entry names the decision; `pgw sandbox compare` lists these
// apart from the differences, and they never make it exit 1. A new decision in docs/sandbox.md
// that a comparison can meet gets its entry here.
import type { Difference, DifferenceKind } from './shape.js';

interface Known {
  /** Step names this holds for ('*': any). */
  steps: readonly string[];
  kinds: readonly DifferenceKind[];
  /** Exact places, or a prefix ending in `*` (`data.*`). */
  where: readonly string[];
  /** Places the prefix does not cover (the docs' own keys). */
  except?: readonly string[];
  /** Only when the gateway shows this (the other documented form). */
  gateway?: string;
  why: string;
}

const SANDBOX_MD = 'docs/sandbox.md';

const KNOWN: readonly Known[] = [
  {
    steps: ['order.create'],
    kinds: ['status'],
    where: ['status'],
    gateway: '200',
    why: `create order answers 201, as the newest v3 docs say (vendor N1); older docs said 200 (${SANDBOX_MD}, "Orders (vendor 4)")`,
  },
  {
    steps: ['link.create'],
    kinds: ['status'],
    where: ['status'],
    gateway: '200',
    why: `create payment link answers 201, as the newest links file says (vendor N9) (${SANDBOX_MD}, "Payment links (vendor 6)")`,
  },
  {
    steps: ['*'],
    kinds: ['extra'],
    where: ['data.opted_mop_type', 'data.mop_type'],
    why: `an optional key with no value is left out, never sent as null: an order without a method has no opted_mop_type or mop_type (${SANDBOX_MD}, "Optional keys and required fields"; vendor C6)`,
  },
  {
    steps: ['link.get', 'link.get-expired', 'link.create', 'link.deactivate'],
    kinds: ['missing'],
    where: ['data.amount', 'data.order_id'],
    why: `a link also carries amount and order_id, which the vendor's client reads (beyond 3.5; vendor C15) (${SANDBOX_MD}, "Operations beyond the spec")`,
  },
  {
    steps: ['link.create'],
    kinds: ['missing'],
    where: ['data.*'],
    except: ['data.payment_id', 'data.link_id', 'data.payment_link', 'data.amount', 'data.currency'],
    why: `create payment link answers with the whole link, as Get Payment Link shows it; the docs show payment_id, link_id, payment_link, amount and currency (${SANDBOX_MD}, "Operations beyond the spec")`,
  },
  {
    steps: ['link.deactivate'],
    kinds: ['missing'],
    where: ['data.*'],
    why: `deactivate answers with the link (the client reads only success and message; vendor 6 shows data {}) (${SANDBOX_MD}, "Decisions where beyond says \\"not shown\\"")`,
  },
  {
    steps: ['link.list'],
    kinds: ['type', 'missing', 'extra'],
    where: ['data.results[].amount', 'data.results[].currency'],
    why: `a link list entry's amount is the vendor client's numeric string with currency beside it, not the docs' object (vendor C11) (${SANDBOX_MD}, "Payment links (vendor 6)")`,
  },
  {
    steps: ['settle.list'],
    kinds: ['envelope', 'missing'],
    where: ['success', 'message', 'data', 'data.*'],
    why: `the settlements list is the envelope and, beside it, the page at the top level, which the vendor's client reads (beyond 4.1; vendor 5.1) (${SANDBOX_MD}, "Settlements list envelope")`,
  },
  {
    steps: ['merchant.list'],
    kinds: ['missing'],
    where: ['data.results[].created_at', 'data.results[].created_date'],
    why: `list entries carry created_date and created_at both (vendor 0.3: send both names) (${SANDBOX_MD}, "Partner merchants (vendor 7)")`,
  },
  {
    steps: ['refund.create'],
    kinds: ['missing'],
    where: ['data.*'],
    except: ['data.refund_id', 'data.payment_id', 'data.refund_status', 'data.message', 'data.bank_ref_num', 'data.refund_amount', 'data.refunded_at'],
    why: `create refund answers with the full refund, as Get Refund shows it (${SANDBOX_MD}, "Decisions where beyond says \\"not shown\\"")`,
  },
  {
    steps: ['refund.create'],
    kinds: ['type'],
    where: ['data.refund_amount'],
    gateway: 'string',
    why: `refund_amount is a number, as vendor 2.1's schema says; its example shows a string (${SANDBOX_MD}, "Refund lifecycle (vendor 2)")`,
  },
  {
    steps: ['refund.get', 'refund.simulate'],
    kinds: ['missing'],
    where: ['data.status_message', 'data.reference_id', 'data.order_id', 'data.currency', 'data.callback_url', 'data.settlement_id', 'data.created_at', 'data.transaction_id', 'data.refund_mode', 'data.request_id'],
    why: `a refund carries message and status_message both (vendor C4), Get Refund's fields of beyond 2.2 (${SANDBOX_MD}, "Refund lifecycle (vendor 2)") and the order's reference_id ("Orders (vendor 4)")`,
  },
  {
    steps: ['bad.api-version'],
    kinds: ['status', 'envelope', 'code', 'missing', 'extra', 'type', 'body'],
    where: ['*'],
    why: `a version not of the form 1.x.x, 2.x.x or 3.x.x is 400 ERR_VERSION_000: the docs do not say what the gateway does (spec 9) (${SANDBOX_MD}, "Decisions where the spec is silent", statuses and codes)`,
  },
];

const matchesWhere = (pattern: string, where: string): boolean => (pattern.endsWith('*') ? where.startsWith(pattern.slice(0, -1)) : where === pattern);

/** Why this difference is one docs/sandbox.md records, or undefined when it is drift. */
export function knownReason(step: string, d: Difference): string | undefined {
  for (const k of KNOWN) {
    if (!k.steps.includes('*') && !k.steps.includes(step)) continue;
    if (!k.kinds.includes(d.kind)) continue;
    if (!k.where.some((w) => matchesWhere(w, d.where))) continue;
    if (k.except?.includes(d.where)) continue;
    if (k.gateway !== undefined && d.gateway !== k.gateway) continue;
    return k.why;
  }
  return undefined;
}
