// The forwarding rule as `pgw listen` states it (issue 45). The sandbox decides, per event, from
// the registrations that receive it, whether this listener forwards it (store/forwarding.ts):
// not when a registration brings it to the same address itself, or another listener forwards it
// there. The decision arrives with each delivery (X-Pgw-Forward); at start the registration's
// answer says how the registrations stand, and the listener says so. A --forward-to that is the
// listener itself would forward every event back to it, without end: refused before anything.
import { UsageError } from '../../errors.js';
import { EVENT_ID_HEADER, FORWARD_HEADER, parseForwardHeader } from '../../events.js';
import { isOnLocalPort } from '../../local-address.js';
import type { ForwardPlanView } from '../sandbox/webhook.js';
import type { ReceivedEvent } from './receiver.js';

/** Exit 2 when `forwardTo` reaches the listener's own port on this machine (any loopback spelling, any path). */
export function refuseLoop(forwardTo: string | undefined, port: number): void {
  if (forwardTo === undefined || !isOnLocalPort(forwardTo, port)) return;
  throw new UsageError(`--forward-to ${forwardTo} is this listener itself (127.0.0.1:${port}): each event would be forwarded back to it, without end`, {
    suggestion: "give your app's address (another port), e.g. --forward-to http://localhost:3000/webhooks",
  });
}

function header(event: ReceivedEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (let i = 0; i + 1 < event.rawHeaders.length; i += 2) if (event.rawHeaders[i]!.toLowerCase() === lower) return event.rawHeaders[i + 1];
  return undefined;
}

/** Why this listener does not forward the event (the sandbox brings it to the address otherwise), or undefined: it forwards. */
export function notForwardedBecause(event: ReceivedEvent): string | undefined {
  const d = parseForwardHeader(header(event, FORWARD_HEADER));
  if (d === undefined || d.forward) return undefined;
  return d.kind === 'address' ? `the sandbox delivers it there (${d.by})` : `listener ${d.by} forwards it`;
}

/** The event's ID for `pgw events resend`: the sandbox's EV…, else the body's sequence_number. */
export function eventIdOf(event: ReceivedEvent, sequenceNumber: unknown): string {
  return header(event, EVENT_ID_HEADER) ?? (typeof sequenceNumber === 'string' && sequenceNumber !== '' ? sequenceNumber : '(no id)');
}

/** At most this many merchants are named; the rest are counted. */
const NAMED = 5;

/** The start lines about forwarding (short: the block stays whole at 80 columns). */
export function forwardingLines(forwardTo: string, plan: ForwardPlanView | undefined): string[] {
  const skipped = plan?.not_forwarded ?? [];
  if (skipped.length === 0) return [`  forwarding to ${forwardTo}`];
  const why = (e: ForwardPlanView['not_forwarded'][number]) =>
    e.kind === 'address' ? `${e.by} (registered for ${e.registered_for}) delivers them there` : `listener ${e.by} forwards them`;
  const lines =
    plan!.forwarded.length === 0
      ? [`  not forwarding to ${forwardTo} now: each event gets there without it:`]
      : [`  forwarding to ${forwardTo}, except events of:`];
  for (const e of skipped.slice(0, NAMED)) lines.push(`    ${e.merchant_id}  ${why(e)}`);
  if (skipped.length > NAMED) lines.push(`    and ${skipped.length - NAMED} more sub-merchants`);
  lines.push('  (decided per event: a registration added or removed counts at once)');
  const address = skipped.find((e) => e.kind === 'address');
  if (address) lines.push(`  to forward through this listener instead: pgw sandbox webhook remove ${address.by}`);
  return lines;
}
