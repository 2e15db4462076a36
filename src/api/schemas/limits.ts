// The limits the CLI checks before sending and the sandbox enforces, in a file without zod so a
// command can read them without loading the schemas.

/** spec part 8: an order amount is > 0 and <= 10,000,000.00; a subscription charges as much each time. */
export const MAX_ORDER_AMOUNT = '10000000.00';

/**
 * The furthest a payment link's expiry may be: 365 days ahead (vendor N9 and 6, the newest v3
 * links file; the spec shows no link create, 4.11). One rule for Create Payment Link, extend_expiry
 * and the /sandbox/ link helper in the sandbox, and for `--expires-in` of `pgw link create` and
 * `pgw sandbox link create` (was 366 days: a year, leap day included).
 */
export const MAX_LINK_EXPIRY_SECONDS = 365 * 24 * 3600;

/** vendor 11.7.6 (11.10 P6): a single VBA transfer above 25 lakh rupees is recorded as a failed credit. */
export const VBA_TRANSFER_CAP = 2_500_000;

/** A UTR the sandbox keeps (vendor 11.7.6): letters, digits, - and _; also a query value of payment-by-utr. */
export const UTR_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** E.164-ish (spec 2.2): a leading +, country code, 8-15 digits; spaces and dashes between groups allowed. */
export function isPhone(value: string): boolean {
  return /^\+[1-9][0-9 -]*[0-9]$/.test(value) && /^\d{8,15}$/.test(value.replace(/[^0-9]/g, ''));
}
