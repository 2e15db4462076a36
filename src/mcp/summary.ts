// The short text beside a tool's structured result: what an agent (or the person watching it)
// reads first. The IDs and the status of what came back; the data itself is the JSON block.
import type { ToolSpec } from './tool.js';
import { causedLine, type ClockCaused } from '../commands/sandbox/clock-report.js';

/** The keys worth naming first, in this order (the API's own names). */
const KEYS = ['order_id', 'payment_id', 'refund_id', 'link_id', 'settlement_id', 'merchant_id', 'id', 'uid', 'event_id', 'status', 'refund_status', 'settlement_status', 'amount', 'refund_amount', 'settlement_amount', 'payment_link', 'session_id', 'now', 'name'];

function line(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of KEYS) {
    const value = data[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') parts.push(`${key} ${String(value)}`);
    if (parts.length >= 5) break;
  }
  return parts.join(', ');
}

export function summaryOf(tool: ToolSpec, data: unknown, dryRun: boolean): string {
  const head = dryRun ? `${tool.name} (dry run, nothing sent)` : tool.name;
  if (Array.isArray(data)) {
    const first = data.slice(0, 3).map((d) => (d !== null && typeof d === 'object' ? line(d as Record<string, unknown>) : String(d)));
    const shown = first.filter(Boolean).map((l) => `- ${l}`);
    return [`${head}: ${data.length} ${data.length === 1 ? 'item' : 'items'}`, ...shown, ...(data.length > 3 ? [`- … ${data.length - 3} more`] : [])].join('\n');
  }
  if (data !== null && typeof data === 'object') {
    const said = line(data as Record<string, unknown>);
    // A clock move says what it caused (issue 42 item 5): the refunds and failed deliveries first.
    const caused = (data as { caused?: unknown }).caused;
    const also = caused !== null && typeof caused === 'object' ? `\n${causedLine(caused as ClockCaused)}` : '';
    return `${said ? `${head}: ${said}` : `${head}: done`}${also}`;
  }
  return data === null ? `${head}: done` : `${head}: ${String(data)}`;
}
