// pgw sandbox coverage: how much of what the gateway documents the sandbox covers, and where the
// report is (docs/parity.md), for a user of the installed package who has no checkout. The
// figures are those of the committed report (parity-headline.ts, written by `npm run parity`).
import type { Context } from '../../context.js';
import { emit } from '../../output/emit.js';
import { PARITY_HEADLINE } from './parity-headline.js';

export const PARITY_REPORT_URL = 'https://github.com/pgw-cli/pgw/blob/main/docs/parity.md';

const ROWS: [keyof typeof PARITY_HEADLINE, string][] = [
  ['operations', 'operations'],
  ['events', 'webhook events'],
  ['statuses', 'status values'],
  ['error_codes', 'error codes'],
];

export function coverageLines(): string {
  const width = Math.max(...ROWS.map(([, label]) => label.length));
  const lines = ROWS.map(([key, label]) => {
    const h = PARITY_HEADLINE[key];
    return `${label.padEnd(width)}  ${h.exercised} of ${h.documented} exercised by tests (${h.in_sandbox} in the sandbox)`;
  });
  return `${lines.join('\n')}\nThe report, row by row (documented, what the sandbox does, which tests): ${PARITY_REPORT_URL}\n`;
}

export async function runSandboxCoverage(ctx: Context): Promise<void> {
  await emit(ctx.io, ctx.output, { ...PARITY_HEADLINE, report: PARITY_REPORT_URL }, () => ctx.io.out(coverageLines()));
}
