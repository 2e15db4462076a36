// The card number and CVV a request carries, as values to scrub from everything printed about
// that request: a gateway may quote them back inside an error message or a log line, where the
// structural masking of redact.ts (by field name) cannot see them.
import { GatewayError, PgwError, type ErrorInfo } from '../errors.js';
import { maskCardData, maskCardNumber } from './redact.js';

export interface CardValues {
  number?: string;
  cvv?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined);

/** spec 2.5: card_details.number and card_details.cvv of a request body, if any. */
export function cardValuesOf(body: unknown): CardValues {
  if (body === null || typeof body !== 'object') return {};
  const card = (body as Record<string, unknown>).card_details;
  if (card === null || typeof card !== 'object' || Array.isArray(card)) return {};
  const { number, cvv } = card as Record<string, unknown>;
  return { number: text(number), cvv: text(cvv) };
}

export function hasCardValues(values: CardValues): boolean {
  return values.number !== undefined || values.cvv !== undefined;
}

/** The number masked to first 6 / last 4; the CVV, only 3-4 digits, replaced as a whole token. */
export function scrubCardText(input: string, values: CardValues): string {
  let out = input;
  if (values.number && values.number.length >= 6) out = out.split(values.number).join(maskCardNumber(values.number));
  if (values.cvv && /^[0-9]{3,4}$/.test(values.cvv)) out = out.replace(new RegExp(`(?<![0-9])${values.cvv}(?![0-9])`, 'g'), '***');
  return out;
}

function scrubValue(value: unknown, values: CardValues): unknown {
  if (typeof value === 'string') return scrubCardText(value, values);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, values));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrubValue(v, values)]));
}

/** The same error (class, code, status, exit code) with the card's number and CVV scrubbed out. */
export function scrubCardError(err: unknown, values: CardValues): unknown {
  if (!hasCardValues(values)) return err;
  if (!(err instanceof PgwError)) {
    return err instanceof Error && scrubCardText(err.message, values) !== err.message ? new GatewayError(scrubCardText(err.message, values)) : err;
  }
  const seen = JSON.stringify([err.message, err.details ?? null, err.suggestion ?? null]);
  if (scrubCardText(seen, values) === seen) return err; // nothing to hide: keep the error as it is
  const info: ErrorInfo = {
    code: err.code,
    status: err.status,
    details: err.details === undefined ? undefined : (scrubValue(err.details, values) as Record<string, unknown>),
    suggestion: err.suggestion === undefined ? undefined : scrubCardText(err.suggestion, values),
  };
  const Kind = err.constructor as new (message: string, info: ErrorInfo) => PgwError;
  return new Kind(scrubCardText(err.message, values), info);
}

/**
 * A success that quotes the card back (a gateway echoing the request): CVV keys removed, card-number
 * keys masked, and in any text the number masked and the CVV replaced where it stands alone. Never
 * inside base64, an ID or an amount: an acs_template must reach the browser intact.
 */
export function scrubCardData<T>(data: T, values: CardValues): T {
  if (!hasCardValues(values)) return data;
  const { number, cvv } = values;
  const cvvAlone = cvv && /^[0-9]{3,4}$/.test(cvv) ? new RegExp(`(?<![0-9A-Za-z+/_.-])${cvv}(?![0-9A-Za-z+/_.-])`, 'g') : undefined;
  const text = (input: string): string => {
    let out = number && number.length >= 12 ? input.split(number).join(maskCardNumber(number)) : input;
    if (cvvAlone) out = out.replace(cvvAlone, '***');
    return out;
  };
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, visit(v)]));
  };
  return visit(maskCardData(data)) as T;
}
