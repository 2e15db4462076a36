// What a forwarding listener did with the events it acknowledged (issue 45 item 3). The sandbox
// logged each as delivered the moment the listener answered 200, and will not retry it: so when
// the listener stops, it finishes what it acknowledged (for as long as --timeout allows) and says
// how many it forwarded, and which it could not, by the ID `pgw events resend` takes.
import type { ForwardResult } from './forward.js';

interface Entry {
  id: string;
  /** The forward has begun (the app may have it, without having answered). */
  sending?: boolean;
  /** undefined while waiting or on the wire; then what became of it. */
  outcome?: 'forwarded' | 'elsewhere' | 'filtered' | { failed: string };
}

export class ForwardTally {
  private readonly entries: Entry[] = [];

  /** An event acknowledged to the sender, not yet forwarded. */
  acknowledged(id: string): Entry {
    const e: Entry = { id };
    this.entries.push(e);
    return e;
  }

  sending(e: Entry): void {
    e.sending = true;
  }

  forwarded(e: Entry, result: ForwardResult): void {
    if (result.ok && result.status >= 200 && result.status < 300) e.outcome = 'forwarded';
    else e.outcome = { failed: result.ok ? `answered HTTP ${result.status}` : result.error };
  }

  /** Not this listener's to forward: the sandbox (or another listener) brings it there. */
  elsewhere(e: Entry): void {
    e.outcome = 'elsewhere';
  }

  filtered(e: Entry): void {
    e.outcome = 'filtered';
  }

  /** At the stop's deadline (`limit`: how it reads): whatever is still waiting or on the wire was not forwarded. */
  cutOff(limit: string): void {
    for (const e of this.entries) {
      if (e.outcome === undefined) e.outcome = { failed: e.sending ? `sent, but not answered within ${limit}` : `not sent: ${limit} ran out first` };
    }
  }

  /** The stop's lines: how many went, how many reached the address otherwise, and each that did not. */
  summary(forwardTo: string, resendHint: boolean): string[] {
    const count = (k: 'forwarded' | 'elsewhere') => this.entries.filter((e) => e.outcome === k).length;
    const failed = this.entries.filter((e): e is Entry & { outcome: { failed: string } } => typeof e.outcome === 'object');
    const plural = (n: number) => `${n} event${n === 1 ? '' : 's'}`;
    const elsewhere = count('elsewhere');
    let line = `forwarded ${plural(count('forwarded'))} to ${forwardTo}`;
    if (elsewhere > 0) line += ` (${elsewhere} more reached it without this listener)`;
    if (failed.length === 0) return [`${line}; none failed`];
    const lines = [`${line}; ${failed.length} could not be${resendHint ? ' (pgw events resend <id> sends one again)' : ''}:`];
    for (const e of failed) lines.push(`  ${e.id}  ${e.outcome.failed}`);
    return lines;
  }
}
