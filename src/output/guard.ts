// The last line of the contract's promise that the client secret, card numbers (any grouping) and
// CVVs never appear in anything pgw prints or writes, "including text a gateway sends back": every
// line to stdout or stderr and every file pgw writes passes through one guard per run. It knows
// the secrets in force (the profile's, PGW_CLIENT_SECRET) and the card of each request sent, and
// masks card numbers it does not know by their shape (card-text.ts), never the gateway's IDs.
import { CARD_NUMBER_KEYS, CVV_KEYS, REDACTED, escapeRegExp, isCardNumber, maskCardNumber, redactSecret, secretForms } from '../safety/redact.js';
import { NON_ASCII_DIGIT, cardCandidatePattern, knownCardDigits, maskCardsInText, maskKnownCard, maskKnownCvv } from '../safety/card-text.js';
import type { CardValues } from '../safety/card-values.js';

/**
 * The shapes of a pgw sandbox's own credentials (src/sandbox/store/accounts.ts): client secret
 * `sbx_cs_` and Encryption Key `sbx_ek_`, then base64url or hex. No other gateway issues these.
 */
const SANDBOX_CREDENTIAL = /^sbx_(?:cs|ek)_[A-Za-z0-9_-]{8,}$/;

/** Text the guard has passed whole: only releaseSandboxCredentials makes one (io.outReleased prints it). */
export type ReleasedText = string & { readonly released: unique symbol };

/** Keys whose digits are not a card whatever the Luhn check says: bank accounts and references. */
const NOT_CARD_KEYS = new Set(['bank_account_number', 'account_number', 'routing_number', 'utr', 'bank_reference', 'bank_ref_no', 'rrn', 'arn']);

export class OutputGuard {
  private readonly secrets = new Set<string>();
  private readonly cards: { digits?: string; cvv?: string }[] = [];
  private readonly cardKeys = new Set<string>();

  /**
   * Matches every text the guard might change: one holding a secret (in any printed form), a
   * known CVV, or the digits of a card number (12 in a row for a known card, single spaces or
   * dashes allowed between them; 13 for any other). Any other text is left as it is without the
   * masks' own work: a look-up of 400 payments asks about ~40,000 strings, nearly all plain
   * (issue 23). Wider than the masks is safe (they then run); narrower would leak.
   */
  private mayHideCache?: RegExp;

  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
    this.mayHideCache = undefined;
  }

  /** The card of a request about to be sent (or previewed): its number and CVV are hunted everywhere. */
  addCard(values: CardValues): void {
    const key = `${values.number ?? ''}|${values.cvv ?? ''}`;
    if ((!values.number && !values.cvv) || this.cardKeys.has(key)) return;
    this.cardKeys.add(key);
    this.cards.push({ digits: values.number ? knownCardDigits(values.number) : undefined, cvv: values.cvv });
    this.mayHideCache = undefined;
  }

  private mayHide(text: string): boolean {
    if (!this.mayHideCache) {
      // A known card is found glued to other text too (maskKnownCard); an unknown one only as a
      // chain of 13+ digits not glued on its left to a letter, digit or `_` (card-text.ts CHAIN):
      // OD69570167081355 is an order ID, and never a card. Digits and gaps of any script.
      const parts = [cardCandidatePattern(this.cards.some((c) => c.digits)).source];
      for (const secret of this.secrets) for (const form of secretForms(secret)) parts.push(escapeRegExp(form));
      // A known CVV, also in another script's digits (maskKnownCvv).
      for (const card of this.cards) if (card.cvv) parts.push(escapeRegExp(card.cvv), NON_ASCII_DIGIT.source);
      this.mayHideCache = new RegExp(parts.join('|'), 'u');
    }
    return this.mayHideCache.test(text);
  }

  /** A text about to be printed or written: known card and CVV, any card number, the secret. */
  text(input: string): string {
    return this.known(maskCardsInText(this.knownCards(input)));
  }

  /**
   * Only what this run knows: its secrets and the cards it sent. For JSON that data() has already
   * cleaned with the keys in view (a bank account number is not a card, whatever Luhn says).
   */
  known(input: string): string {
    return this.secretsOnly(this.knownCards(input));
  }

  private knownCards(input: string): string {
    let out = input;
    for (const card of this.cards) out = maskKnownCvv(maskKnownCard(out, card.digits), card.cvv);
    return out;
  }

  /**
   * Data about to be printed as JSON: CVV keys removed, card-number keys and values masked, every
   * string (and key) through text(). Bare numbers stay numbers unless they are card numbers.
   */
  data<T>(value: T): T {
    return this.visit(value, '', false) as T;
  }

  private visit(value: unknown, key: string, inCard: boolean): unknown {
    const notCard = NOT_CARD_KEYS.has(key);
    const cardKey = CARD_NUMBER_KEYS.has(key) || (inCard && key === 'number');
    if (typeof value === 'string') {
      if (!cardKey && !this.mayHide(value)) return value;
      if (this.isSecret(value)) return REDACTED;
      if (cardKey && /^[\d\s-]{12,}$/.test(value)) return maskCardNumber(value);
      return notCard ? this.secretsOnly(value) : this.text(value);
    }
    if (typeof value === 'number') return !notCard && isCardNumber(value) ? maskCardNumber(value) : value;
    // Copied only where something changes: a look-up of 400 payments has nothing to hide, and
    // copying every object and array was most of the 25 ms this walk took (issue 23). What
    // data() returns is only ever serialised or queried, never changed in place.
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const cleaned = this.visit(value[i], key, false);
        if (copy === undefined && cleaned !== value[i]) copy = value.slice(0, i);
        copy?.push(cleaned);
      }
      return copy ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const lower = k.toLowerCase();
      const dropped = CVV_KEYS.has(lower); // spec 2.5: never shown, whoever sent it
      const cleanKey = dropped || !this.mayHide(k) ? k : this.secretsOnly(k);
      const cleaned = dropped ? undefined : this.visit(object[k], lower, lower === 'card_details' || lower === 'card');
      if (copy === undefined && (dropped || cleanKey !== k || cleaned !== object[k])) {
        copy = {};
        for (let j = 0; j < i; j++) copy[keys[j]!] = object[keys[j]!];
      }
      if (copy !== undefined && !dropped) copy[cleanKey] = cleaned;
    }
    return copy ?? object;
  }

  /**
   * `pgw sandbox env` is the one command whose output is a secret (contract): the credentials of a
   * pgw sandbox account, to eval. Exactly the values named pass, and only when they have a pgw
   * sandbox credential's shape; the rest of the text goes through text() as any output does (a
   * production secret in it would still be masked). The values pass even when the run knows them
   * as secrets: a job that eval'd them once has them in PGW_CLIENT_SECRET already.
   */
  releaseSandboxCredentials(text: string, values: string[]): ReleasedText {
    for (const v of values) if (!SANDBOX_CREDENTIAL.test(v)) throw new Error('not a pgw sandbox credential: not printed');
    // Each value is held out under a marker text() leaves alone (no digits, no secret), then put back.
    const marker = (i: number) => `\u0000${'x'.repeat(i + 1)}\u0000`;
    let held = text;
    values.forEach((v, i) => (held = held.split(v).join(marker(i))));
    let out = this.text(held);
    values.forEach((v, i) => (out = out.split(marker(i)).join(v)));
    return out as ReleasedText;
  }

  private isSecret(value: string): boolean {
    return this.secrets.has(value.trim());
  }

  private secretsOnly(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = redactSecret(out, secret);
    return out;
  }
}
