// What `pgw payment verify` checks against the payment itself before its first upload (issue 42
// item 3: uploads are immutable, so a value the gateway would refuse must never cost one): its
// state takes details (vendor 11.3 gating), each code is on its checklist (11.2.1), the
// classification comes as a pair and only once (11.2.2 rule 2), and on pgw's sandbox the purpose
// code is enabled for the account (11.10 P4: GET /sandbox/purpose-codes/). Reads only (GET): a
// dry run makes them too.
import type { ApiClient } from '../../api/types.js';
import { GatewayError } from '../../errors.js';
import type { Requirements } from './verification.js';
import { ACCEPTING_STATES, openReviewHint, stateSentence } from './states.js';

export interface Problem {
  path: string;
  message: string;
}

/** The account's enabled purpose codes on pgw's sandbox; undefined where pgw cannot know them. */
export async function enabledPurposeCodes(api: ApiClient): Promise<string[] | undefined> {
  try {
    const r = await api.request<{ enabled?: unknown }>({ method: 'GET', path: '/sandbox/purpose-codes/' });
    return Array.isArray(r?.enabled) ? r.enabled.filter((c): c is string => typeof c === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** "enabled for this account: S0802, S0803, …; pgw sandbox purpose-codes enable S9999 enables it" */
export function enabledSentence(enabled: string[], code: string | undefined): string {
  const list = enabled.length ? enabled.join(', ') : 'none';
  return `enabled for this account: ${list}${code ? ` (on pgw's sandbox: pgw sandbox purpose-codes enable ${code})` : ''}`;
}

/**
 * A payment whose state takes no details is refused before anything is sent: exit 1 with the
 * gateway's code for it (40360, what the submit would answer), its state and what that means.
 */
export function refuseState(id: string, r: Requirements, sandbox: boolean): void {
  // A gateway that does not say the state is left to answer for itself (tolerant where silent).
  const state = typeof r.settlement_status === 'string' ? r.settlement_status : '';
  if (state === '' || ACCEPTING_STATES.includes(state)) return;
  throw new GatewayError(`${stateSentence(id, state)}; only ACTION_REQUIRED and INFO_PENDING take details (vendor 11.3). Nothing was sent`, {
    code: '40360',
    suggestion: openReviewHint(id, state, sandbox),
  });
}

/** The codes given, against the payment's checklist as it stands. */
export function checklistProblems(r: Requirements, given: { fields: string[]; documents: string[]; waived: string[] }): Problem[] {
  const problems: Problem[] = [];
  // An answer that is no checklist (neither list present) tells pgw nothing to check against.
  if (!Array.isArray(r.fields) && !Array.isArray(r.documents)) return problems;
  const declared = r.business_model != null && r.purpose_code != null;
  const classifying = given.fields.filter((c) => c === 'business_model' || c === 'purpose_code');
  if (declared) {
    for (const c of classifying) problems.push({ path: `--field ${c}`, message: `${c}: already set on the order (${c === 'business_model' ? r.business_model : r.purpose_code}); it cannot be changed here` });
  } else if (classifying.length === 1) {
    const missing = classifying[0] === 'business_model' ? 'purpose_code' : 'business_model';
    problems.push({ path: `--field ${classifying[0]}`, message: `${classifying[0]} comes with ${missing}: give both (--field ${missing}=<value>)` });
  }
  // Unclassified and declaring now: the checklist that follows is the gateway's to choose, so only
  // the classification is checked here. Otherwise every code must be on this checklist.
  if (!declared && classifying.length === 2) return problems;
  const fieldCodes = new Set((r.fields ?? []).map((i) => i.code));
  const documentCodes = new Set((r.documents ?? []).map((i) => i.code));
  for (const c of given.fields) {
    if (c === 'business_model' || c === 'purpose_code') continue;
    if (!fieldCodes.has(c)) problems.push({ path: `--field ${c}`, message: `${c} is not on this payment's checklist (${[...fieldCodes].join(', ') || 'no fields'})${declared ? '' : ': declare business_model and purpose_code first'}` });
  }
  for (const c of given.documents) {
    if (!documentCodes.has(c)) problems.push({ path: `--document ${c}`, message: `${c} is not a document this payment's checklist asks for (${[...documentCodes].join(', ') || 'none'})` });
  }
  for (const c of given.waived) {
    const item = (r.documents ?? []).find((i) => i.code === c);
    if (!item) problems.push({ path: `--waive ${c}`, message: `${c} is not a document this payment's checklist asks for (${[...documentCodes].join(', ') || 'none'})` });
    else if (!item.waivable) problems.push({ path: `--waive ${c}`, message: `${c} cannot be waived: upload it (--document ${c}=<file>)` });
  }
  return problems;
}
