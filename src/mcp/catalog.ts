// Which tools `pgw mcp` offers: every tool of the chosen toolsets that the profile can run, less
// writes where they are not allowed. The rails are here, once: --list and the server both ask.
import type { Gateway, ToolSpec, Toolset } from './tool.js';
import { orderTools } from './tools/orders.js';
import { paymentTools } from './tools/payments.js';
import { refundTools } from './tools/refunds.js';
import { linkTools } from './tools/links.js';
import { settlementTools } from './tools/settlements.js';
import { merchantTools } from './tools/merchants.js';
import { eventTools } from './tools/events.js';
import { sandboxTools } from './tools/sandbox.js';
import { vbaSandboxTools, vbaTools } from './tools/vba.js';
import { complianceTools } from './tools/compliance.js';
import { verificationSandboxTools, verificationTools } from './tools/verification.js';

export const ALL_TOOLS: readonly ToolSpec[] = [
  ...orderTools,
  ...paymentTools,
  ...vbaTools,
  ...complianceTools,
  ...verificationTools,
  ...refundTools,
  ...linkTools,
  ...settlementTools,
  ...merchantTools,
  ...eventTools,
  ...sandboxTools,
  ...vbaSandboxTools,
  ...verificationSandboxTools,
];

export interface Selection {
  toolsets?: readonly Toolset[];
  readOnly?: boolean;
  allowProduction?: boolean;
}

/**
 * The tools to offer. On production: nothing sandbox-only, and no write at all without
 * --allow-production (with it, every write is two-step: confirm.ts). Tools of pgw's own sandbox
 * (clock, snapshots, faults, delivery log) only where that sandbox is.
 */
export function selectTools(gateway: Gateway, selection: Selection): ToolSpec[] {
  return ALL_TOOLS.filter((t) => {
    if (selection.toolsets && !selection.toolsets.includes(t.toolset)) return false;
    if (t.needs === 'pgw' && !gateway.pgwSandbox) return false;
    if (t.needs !== 'any' && gateway.production) return false;
    if (t.effect === 'write' && selection.readOnly) return false;
    if (t.effect === 'write' && gateway.production && !selection.allowProduction) return false;
    return true;
  });
}
