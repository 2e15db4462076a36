// The comparison for a person: one table (step, where, sandbox, gateway) that fits the terminal,
// every step in it (a step that agrees says so in one row), and under it on stderr the known
// differences with the decision each comes from, the counts and what to do next.
import { plainText } from '../safety/terminal-text.js';
import type { CompareReport } from './run.js';
import type { Step } from './scenario.js';

export const REPORT_HEAD = ['step', 'where', 'sandbox', 'gateway'];

/** At most this many characters of a value a gateway sent (an enum, a code): the rest is in --json. */
const CELL = 40;
const cut = (text: string): string => {
  const plain = plainText(text); // a gateway's key or value with an escape sequence must not draw on the terminal
  return plain.length > CELL ? `${plain.slice(0, CELL - 1)}…` : plain;
};

export function reportRows(report: CompareReport): string[][] {
  const rows: string[][] = [];
  for (const s of report.steps) {
    if (s.outcome === 'skipped') rows.push([s.step, `skipped: ${s.reason ?? ''}`, '-', '-']);
    else if (s.differences.length === 0) rows.push([s.step, '-', 'same', 'same']);
    for (const d of s.differences) rows.push([s.step, plainText(d.known ? `${d.where} (known)` : d.where), cut(d.sandbox), cut(d.gateway)]);
  }
  return rows;
}

/** The lines under the table: known differences and why, the counts, the next step. */
export function reportNotes(report: CompareReport, against: string): string[] {
  const lines: string[] = [];
  const known = report.steps.flatMap((s) => s.differences.filter((d) => d.known).map((d) => ({ step: s.step, ...d })));
  const reasons = new Map<string, string[]>();
  for (const k of known) reasons.set(k.known!, [...(reasons.get(k.known!) ?? []), `${k.step} ${k.where}`]);
  for (const [why, places] of reasons) lines.push(`known: ${places.join(', ')}: ${why}`);
  const skippedFor = (reason: string) => report.steps.filter((s) => s.reason === reason).map((s) => s.step);
  const payment = skippedFor('needs --payment');
  if (payment.length > 0) lines.push(`skipped ${payment.join(', ')}: --payment <PR…> names a captured payment of the gateway, not yet settled (it is refunded 1.00 and settled)`);
  const subscription = skippedFor('needs --subscription');
  if (subscription.length > 0) lines.push(`skipped ${subscription.join(', ')}: --subscription <id> names a subscription of the gateway`);
  const c = report.counts;
  lines.push(
    `${c.steps} steps: ${c.same} same, ${c.differs} differ (${c.differences} difference${c.differences === 1 ? '' : 's'})` +
      `${c.known > 0 ? `, ${c.known} with known differences only` : ''}${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}; ` +
      `${report.requests.gateway} requests to the gateway, ${report.requests.sandbox} to pgw's sandbox`,
  );
  if (!report.same) {
    lines.push(`next: record both sides with pgw sandbox compare --against ${against} --record <dir> and send us the directory (docs/sandbox.md, "Checking the sandbox against your gateway")`);
  }
  return lines;
}

/** `--steps`: the scenario, one row a step. */
export function stepRows(steps: readonly Step[]): string[][] {
  return steps.map((s) => [s.name, s.shown, [s.group === 'flow' ? '' : s.group, ...(s.needs ?? []).map((n) => (n === 'psp' ? 'PSP profile' : `--${n}`))].filter(Boolean).join(', ') || '-', s.doc]);
}

export const STEP_HEAD = ['step', 'request', 'needs', 'documented in'];
