// The limits the CLI checks before sending and the sandbox enforces, in a file without zod so a
// command can read them without loading the schemas.

/** spec part 8: an order amount is > 0 and <= 10,000,000.00; a subscription charges as much each time. */
export const MAX_ORDER_AMOUNT = '10000000.00';

/** The sandbox's longest payment link (docs/sandbox.md): a year, leap day included. */
export const MAX_LINK_EXPIRY_SECONDS = 366 * 24 * 3600;
