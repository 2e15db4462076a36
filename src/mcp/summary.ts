// The one line beside a tool's structured result (issue 43 item 1): what an agent (or the person
// watching it) reads first. The IDs and the status of what came back, how many items a list
// holds, and what the command said on stderr; the data itself is the JSON that follows, once.
import type { ToolSpec } from './tool.js';
import { causedLine, type ClockCaused } from '../commands/sandbox/clock-report.js';

/** The keys worth naming first, in this order (the API's own names). */
const KEYS = ['order_id', 'payment_id', 'refund_id', 'link_id', 'settlement_id', 'merchant_id', 'id', 'uid', 'event_id', 'status', 'refund_status', 'settlement_status', 'amount', 'refund_amount', 'settlement_amount', 'payment_link', 'checkout_url', 'session_id', 'now', 'name'];

function line(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of KEYS) {
    const value = data[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') parts.push(`${key} ${String(value)}`);
    if (parts.length >= 5) break;
  }
  return parts.join(', ');
}

/** One line: never a newline, whatever the notes held. */
export function summaryOf(tool: ToolSpec, data: unknown, dryRun: boolean, notes: readonly string[] = []): string {
  const head = dryRun ? `${tool.name} (dry run, nothing sent)` : tool.name;
  let said: string;
  if (Array.isArray(data)) said = `${data.length} ${data.length === 1 ? 'item' : 'items'}`;
  else if (data !== null && typeof data === 'object') said = line(data as Record<string, unknown>) || 'done';
  else said = data === null ? 'done' : String(data);
  // A clock move says what it caused (issue 42 item 5): the refunds and failed deliveries first.
  const caused = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as { caused?: unknown }).caused : undefined;
  const also = caused !== null && typeof caused === 'object' ? [causedLine(caused as ClockCaused)] : [];
  const text = [`${head}: ${said}`, ...also, ...notes].join('; ');
  return text.replace(/\s*\n\s*/g, '; ');
}
