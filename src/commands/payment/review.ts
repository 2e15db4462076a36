// What the reviewer last said about a payment's verification (issue 42 item 2): the message, the
// items it asks for and the deadline. The gateway's reads do not carry them: they travel only in
// the compliance events (vendor 11.4.2 VERIFICATION_NEEDED: message, action_required_fields,
// payment_verification_expiry; 11.4.4 LRS_VERIFICATION_NEEDED). On pgw's own sandbox they are read
// from its delivery log (GET /sandbox/events/, two requests); elsewhere pgw cannot know them.
import type { ApiClient } from '../../api/types.js';
import { formatTime } from '../../output/time.js';
import { plainText } from '../../safety/terminal-text.js';
import type { ResolvedProfile } from '../../config/types.js';
import { isProduction } from '../../rails.js';

export interface ReviewFacts {
  /** The latest compliance event's message: on a send-back, the reviewer's words. */
  message: string | null;
  /** The items it asks for (codes). */
  asks: string[];
  /** payment_verification_expiry of that event: when the verification expires (null: none). */
  deadline: string | null;
  /** When it was sent, and which event it was. */
  at: string;
  event_id: string;
  event_type: string;
}

const REVIEW_EVENTS = new Set(['VERIFICATION_NEEDED', 'LRS_VERIFICATION_NEEDED', 'PAYMENT_UNDER_REVIEW', 'VERIFICATION_STATUS']);

interface Listed {
  id: string;
  event_type: string;
  created_at: string;
}

/** vendor 11.4: payment_verification_expiry is UTC without an offset; said with its Z, so no reader takes it for local time. */
const utc = (v: string | null): string | null => (v !== null && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v);

const codesOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((i) => (typeof i === 'string' ? i : i !== null && typeof i === 'object' ? String((i as { code?: unknown; field?: unknown }).code ?? (i as { field?: unknown }).field ?? '') : '')).filter((c) => c !== '') : [];

/** Where the facts can come from: pgw's own sandbox (not production; a gateway without the log answers nothing). */
export function reviewSource(profile: ResolvedProfile): 'delivery log' | undefined {
  return isProduction(profile) ? undefined : 'delivery log';
}

/** The latest compliance event about `paymentId`, read from the sandbox's delivery log; undefined when there is none or no log. */
export async function reviewOf(api: ApiClient, paymentId: string): Promise<ReviewFacts | undefined> {
  try {
    const listed = await api.request<Listed[]>({ method: 'GET', path: '/sandbox/events/', query: { about: paymentId, limit: 100 } });
    const latest = (listed ?? []).find((e) => REVIEW_EVENTS.has(e.event_type));
    if (!latest) return undefined;
    const event = await api.request<{ payload?: { data?: Record<string, unknown> } }>({ method: 'GET', path: `/sandbox/events/${latest.id}/` });
    const data = event?.payload?.data ?? {};
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    return {
      message: text(data.message),
      asks: [...codesOf(data.action_required_fields), ...codesOf(data.action_required_documents)],
      deadline: utc(text(data.payment_verification_expiry)),
      at: latest.created_at,
      event_id: latest.id,
      event_type: latest.event_type,
    };
  } catch {
    // A gateway without the delivery log (the vendor's own sandbox): nothing more to say.
    return undefined;
  }
}

/** The reviewer's last word (review.ts), as rows: message, what it asks for, the deadline. */
export function reviewRows(review: ReviewFacts | undefined, state: string | undefined, local: boolean): [string, string][] {
  if (!review) return [];
  const text = (v: string) => plainText(v);
  const dated = state === 'ACTION_REQUIRED' || state === 'INFO_PENDING';
  return [
    ['last message', review.message ? `${text(review.message)} (${formatTime(review.at, local)}, ${review.event_type})` : '-'],
    ['asks for', review.asks.length ? review.asks.map(text).join(', ') : 'nothing named'],
    ['deadline', dated && review.deadline ? `${formatTime(review.deadline, local)} (then it expires and is refunded in full)` : 'none'],
  ];
}

