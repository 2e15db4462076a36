// Which tools `pgw mcp` offers: every tool of the chosen toolsets that the profile can run, less
// writes where they are not allowed. The rails are here, once: --list and the server both ask.
//
// Adding a tool (the pattern of issue 43):
//   1. Write its `tool({...})` in tools/<noun>.ts: name (noun_verb), title, toolset, a description
//      of one or two sentences that also states every conditional rule its schema cannot (e.g.
//      "product.hs_code is required when type_of_goods is physical_goods"), command, effect,
//      needs, and an input from the shared request schemas with `required` where the API requires.
//      A write that generates or computes a value (a reference, an expiry) fixes it in `fix`; a
//      write that uploads files names them in `files`; a result that differs from `--json` is
//      shaped in `result` (and the description says how).
//   2. Add it to ALL_TOOLS below, beside its toolset's other tools.
//   3. It joins the default list unless it says `extra: true`. The default list has a budget
//      (test/mcp/budget.test.ts: at most 40 tools and 40,000 characters of tools/list on the
//      embedded sandbox, where the most is offered); `npm run bench` prints where it stands. A
//      tool people reach for less often is `extra`: offered when its toolset is named, or `all`.
//   4. Add sample arguments to test/helpers/mcp-samples.ts (the annotation test and the leak scan
//      run every tool with them) and run `npm run mcp-docs`.
import type { Gateway, ToolSpec, ToolsetChoice } from './tool.js';
import { orderTools } from './tools/orders.js';
import { paymentTools } from './tools/payments.js';
import { refundTools } from './tools/refunds.js';
import { linkTools } from './tools/links.js';
import { settlementTools } from './tools/settlements.js';
import { merchantTools } from './tools/merchants.js';
import { eventTools } from './tools/events.js';
import { webhookTools } from './tools/webhooks.js';
import { sandboxTools } from './tools/sandbox.js';
import { vbaSandboxTools, vbaTools } from './tools/vba.js';
import { complianceTools } from './tools/compliance.js';
import { verificationSandboxTools, verificationTools } from './tools/verification.js';

export const ALL_TOOLS: readonly ToolSpec[] = [
  ...orderTools,
  ...paymentTools,
  ...refundTools,
  ...linkTools,
  ...settlementTools,
  ...merchantTools,
  ...complianceTools,
  ...vbaTools,
  ...verificationTools,
  ...vbaSandboxTools,
  ...verificationSandboxTools,
  ...eventTools,
  ...webhookTools,
  ...sandboxTools,
];

/**
 * What the default list may cost an agent before it starts (issue 43): a widely used client sends
 * its model only the first 40 tools, and each character of tools/list is paid for in tokens.
 */
export const DEFAULT_LIST_BUDGET = { tools: 40, characters: 40_000 } as const;

export interface Selection {
  /** Absent: the default list. */
  toolsets?: readonly ToolsetChoice[];
  readOnly?: boolean;
  allowProduction?: boolean;
}

/** Whether `--toolsets` (or its absence) chooses this tool. */
function chosen(tool: ToolSpec, toolsets: readonly ToolsetChoice[] | undefined): boolean {
  if (toolsets === undefined) return tool.extra !== true;
  if (toolsets.includes('all') || toolsets.includes(tool.toolset)) return true;
  return toolsets.includes('default') && tool.extra !== true;
}

/**
 * The tools to offer. On production: nothing sandbox-only, and no write at all without
 * --allow-production (with it, every write is two-step: confirm.ts). Tools of pgw's own sandbox
 * (clock, snapshots, faults, delivery log) only where that sandbox is.
 */
export function selectTools(gateway: Gateway, selection: Selection): ToolSpec[] {
  return ALL_TOOLS.filter((t) => {
    if (!chosen(t, selection.toolsets)) return false;
    return runsHere(t, gateway, selection);
  });
}

/** The rails alone (no toolset choice): what this profile and these flags allow. */
export function runsHere(t: ToolSpec, gateway: Gateway, selection: Pick<Selection, 'readOnly' | 'allowProduction'>): boolean {
  if (t.needs === 'pgw' && !gateway.pgwSandbox) return false;
  if (t.needs !== 'any' && gateway.production) return false;
  if (t.effect === 'write' && selection.readOnly) return false;
  if (t.effect === 'write' && gateway.production && !selection.allowProduction) return false;
  return true;
}
