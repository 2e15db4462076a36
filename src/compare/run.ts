// A comparison (issue 46): the scenario's steps sent to the profile's gateway and to pgw's own
// sandbox, one request each, their answers compared (shape.ts), known documented differences
// marked as such (known.ts). What it returns is the report the command prints and the exchanges
// a recording writes; it prints nothing itself.
import { AuthError, GatewayError } from '../errors.js';
import { errorFromResponse } from '../api/errors.js';
import { send, type Exchange, type Sent, type Side } from './exchange.js';
import { knownReason } from './known.js';
import { newReference, type Need, type Step, type Vars } from './scenario.js';
import { capturedFrom, selectSteps } from './select.js';
import { openSandboxSide } from './sandbox-side.js';
import { compareAnswers, type Difference } from './shape.js';

export interface CompareOptions {
  only?: string[];
  /** Only the steps that send nothing but GET (the MCP tool). */
  readOnly?: boolean;
  /** A captured payment of the gateway's, not yet settled: the refund and sandbox-only steps. */
  payment?: string;
  /** A subscription of the gateway's: sub.simulate. */
  subscription?: string;
  /** The profile is a PSP's (also when it acts for a sub-merchant): the sub-merchant list. */
  psp: boolean;
}

export interface ReportedDifference extends Difference {
  /** Set for a difference docs/sandbox.md records as a decision: why, and where. */
  known?: string;
}

export type Outcome = 'same' | 'differs' | 'known' | 'skipped';

export interface StepResult {
  step: string;
  title: string;
  request: string;
  outcome: Outcome;
  /** Why a step was skipped. */
  reason?: string;
  sandbox?: { status: number };
  gateway?: { status: number };
  differences: ReportedDifference[];
}

export interface CompareReport {
  /** Nothing differs but what docs/sandbox.md records. */
  same: boolean;
  profile: string;
  base_url: string;
  api_version: string;
  steps: StepResult[];
  counts: { steps: number; same: number; differs: number; known: number; skipped: number; differences: number; known_differences: number };
  requests: { gateway: number; sandbox: number };
}

export interface Comparison {
  report: CompareReport;
  exchanges: { gateway: Exchange[]; sandbox: Exchange[] };
}

export interface GatewayTarget {
  side: Side;
  profile: string;
}

const NEED_REASON: Record<Need, string> = {
  payment: 'needs --payment',
  subscription: 'needs --subscription',
  psp: "not a PSP's profile (--psp)",
};

export async function runComparison(
  gateway: GatewayTarget,
  opts: CompareOptions,
  deps: { now: Date; userAgent: string; log?: (line: string) => void; signal?: AbortSignal; addSecret?: (secret: string) => void },
): Promise<Comparison> {
  const steps = selectSteps(opts.only, opts.readOnly === true);
  const have = new Set<Need>();
  if (opts.payment !== undefined) have.add('payment');
  if (opts.subscription !== undefined) have.add('subscription');
  if (opts.psp) have.add('psp');
  const wanted = new Set(steps.flatMap((s) => (s.needs ?? []).filter((n) => have.has(n))));

  const g = gateway.side;
  const sandbox = await openSandboxSide({
    psp: opts.psp,
    actsForMerchant: g.merchantId !== undefined,
    apiVersion: g.apiVersion,
    timeoutMs: g.timeoutMs,
    userAgent: deps.userAgent,
    needs: wanted,
    log: deps.log && ((line) => deps.log!(`sandbox ${line}`)),
  });
  // Its demo accounts' secrets are kept out of everything printed or recorded, as the profile's are.
  for (const secret of sandbox.secrets) deps.addSecret?.(secret);
  try {
    const reference = newReference(deps.now);
    const vars: Record<'gateway' | 'sandbox', Vars> = {
      gateway: { reference, payment_id: opts.payment, subscription_id: opts.subscription },
      sandbox: { reference, ...sandbox.vars },
    };
    const exchanges: Comparison['exchanges'] = { gateway: [], sandbox: [] };
    const results: StepResult[] = [];
    for (const step of steps) {
      const skipped = whySkip(step, have, vars);
      if (skipped !== undefined) {
        results.push({ step: step.name, title: step.title, request: step.shown, outcome: 'skipped', reason: skipped, differences: [] });
        continue;
      }
      const fromGateway = await send(g, step.name, step.request(vars.gateway), deps.signal);
      if (exchanges.gateway.length === 0) refuseUnusable(fromGateway, gateway);
      exchanges.gateway.push(fromGateway.exchange);
      const fromSandbox = await send(sandbox.side, step.name, step.request(vars.sandbox), deps.signal);
      exchanges.sandbox.push(fromSandbox.exchange);
      capture(step, fromGateway, vars.gateway);
      capture(step, fromSandbox, vars.sandbox);
      const differences: ReportedDifference[] = compareAnswers(fromSandbox.answer, fromGateway.answer).map((d) => {
        const known = knownReason(step.name, d);
        return known === undefined ? d : { ...d, known };
      });
      const outcome: Outcome = differences.length === 0 ? 'same' : differences.every((d) => d.known) ? 'known' : 'differs';
      results.push({ step: step.name, title: step.title, request: step.shown, outcome, sandbox: { status: fromSandbox.answer.status }, gateway: { status: fromGateway.answer.status }, differences });
    }
    const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
    const all = results.flatMap((r) => r.differences);
    const report: CompareReport = {
      same: count('differs') === 0,
      profile: gateway.profile,
      base_url: g.baseUrl,
      api_version: g.apiVersion,
      steps: results,
      counts: {
        steps: results.length,
        same: count('same'),
        differs: count('differs'),
        known: count('known'),
        skipped: count('skipped'),
        differences: all.filter((d) => !d.known).length,
        known_differences: all.filter((d) => d.known).length,
      },
      requests: { gateway: exchanges.gateway.length, sandbox: exchanges.sandbox.length + sandbox.setupRequests },
    };
    return { report, exchanges };
  } finally {
    await sandbox.close();
  }
}

function whySkip(step: Step, have: Set<Need>, vars: Record<'gateway' | 'sandbox', Vars>): string | undefined {
  const need = (step.needs ?? []).find((n) => !have.has(n));
  if (need !== undefined) return NEED_REASON[need];
  for (const id of step.uses ?? []) {
    const missing = (['gateway', 'sandbox'] as const).filter((side) => vars[side][id] === undefined);
    if (missing.length > 0) return `no ${id}: the step that makes it failed on ${missing.length === 2 ? 'both sides' : `the ${missing[0]}`}`;
  }
  return undefined;
}

function capture(step: Step, sent: Sent, vars: Vars): void {
  if (sent.answer.status >= 300) return;
  for (const [name, paths] of Object.entries(step.captures ?? {})) {
    const value = capturedFrom(sent.body, paths);
    if (value !== undefined) vars[name] = value;
  }
}

/**
 * The first answer of the gateway says whether there is anything to compare: a body that is not
 * JSON (a web page, a proxy's error) means the address is not the API's, and refused credentials
 * mean every answer would be the same refusal. Either ends the run with the error it is.
 */
function refuseUnusable(first: Sent, gateway: GatewayTarget): void {
  const { answer } = first;
  if (answer.json === undefined) {
    throw new GatewayError(
      `the gateway of profile "${gateway.profile}" answered ${answer.status}${answer.contentType ? ` with ${answer.contentType}` : ''}, not JSON: nothing to compare`,
      { code: 'COMPARE_NOT_JSON', status: answer.status, suggestion: `check that ${gateway.side.baseUrl} is the API's address (pgw profile show ${gateway.profile})` },
    );
  }
  if (answer.status === 401 || answer.status === 403) {
    const err = errorFromResponse(answer.status, answer.json, first.exchange.response.headers, { secret: gateway.side.clientSecret });
    if (err instanceof AuthError) throw err;
  }
}
