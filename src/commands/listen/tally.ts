// What a forwarding listener did with the events it acknowledged (issue 45 item 3). The sandbox
// logged each as delivered the moment the listener answered 200, and will not retry it: so when
// the listener stops, it finishes what it acknowledged (for as long as --timeout allows) and says
// how many it forwarded, and which it could not, by the ID `pgw events resend` takes. Counts and
// the events not (yet) forwarded are kept, not every event: a listener may run for days.
import type { ForwardResult } from './forward.js';

export interface Entry {
  id: string;
  /** The forward has begun (the app may have it, without having answered). */
  sending?: boolean;
}

/** At most this many events are named at the stop; the rest are counted. */
const NAMED = 20;

export class ForwardTally {
  private forwardedCount = 0;
  private elsewhereCount = 0;
  /** Acknowledged, not yet forwarded nor settled otherwise. */
  private readonly open = new Set<Entry>();
  private readonly failed: { id: string; why: string }[] = [];

  /** An event acknowledged to the sender, not yet forwarded. */
  acknowledged(id: string): Entry {
    const e: Entry = { id };
    this.open.add(e);
    return e;
  }

  sending(e: Entry): void {
    e.sending = true;
  }

  forwarded(e: Entry, result: ForwardResult): void {
    if (!this.open.delete(e)) return;
    if (result.ok && result.status >= 200 && result.status < 300) this.forwardedCount++;
    else this.failed.push({ id: e.id, why: result.ok ? `answered HTTP ${result.status}` : result.error });
  }

  /** Not this listener's to forward: the sandbox (or another listener) brings it there. */
  elsewhere(e: Entry): void {
    if (this.open.delete(e)) this.elsewhereCount++;
  }

  /** Not shown (--events): nothing is owed. */
  filtered(e: Entry): void {
    this.open.delete(e);
  }

  /** At the stop's deadline (`limit`: how it reads): whatever is still waiting or on the wire was not forwarded. */
  cutOff(limit: string): void {
    for (const e of this.open) this.failed.push({ id: e.id, why: e.sending ? `sent, but not answered within ${limit}` : `not sent: ${limit} ran out first` });
    this.open.clear();
  }

  /** The stop's lines: how many went, how many reached the address otherwise, and each that did not. */
  summary(forwardTo: string, resendHint: boolean): string[] {
    const plural = (n: number) => `${n} event${n === 1 ? '' : 's'}`;
    let line = `forwarded ${plural(this.forwardedCount)} to ${forwardTo}`;
    if (this.elsewhereCount > 0) line += ` (${this.elsewhereCount} more reached it without this listener)`;
    if (this.failed.length === 0) return [`${line}; none failed`];
    const lines = [`${line}; ${this.failed.length} could not be${resendHint ? ' (pgw events resend <id> sends one again)' : ''}:`];
    for (const f of this.failed.slice(0, NAMED)) lines.push(`  ${f.id}  ${f.why}`);
    if (this.failed.length > NAMED) lines.push(`  and ${this.failed.length - NAMED} more`);
    return lines;
  }
}
