// The last line of the contract's promise that the client secret, card numbers (any grouping) and
// CVVs never appear in anything pgw prints or writes, "including text a gateway sends back": every
// line to stdout or stderr and every file pgw writes passes through one guard per run. It knows
// the secrets in force (the profile's, PGW_CLIENT_SECRET) and the card of each request sent, and
// masks card numbers it does not know by their shape (card-text.ts), never the gateway's IDs.
import { CARD_NUMBER_KEYS, CVV_KEYS, REDACTED, isCardNumber, maskCardNumber, redactSecret } from '../safety/redact.js';
import { knownCardPattern, maskCardsInText, maskKnownCard, maskKnownCvv } from '../safety/card-text.js';
import type { CardValues } from '../safety/card-values.js';

/** Keys whose digits are not a card whatever the Luhn check says: bank accounts and references. */
const NOT_CARD_KEYS = new Set(['bank_account_number', 'account_number', 'routing_number', 'utr', 'bank_reference', 'bank_ref_no', 'rrn', 'arn']);

export class OutputGuard {
  private readonly secrets = new Set<string>();
  private readonly cards: { pattern?: RegExp; cvv?: string }[] = [];
  private readonly cardKeys = new Set<string>();

  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
  }

  /** The card of a request about to be sent (or previewed): its number and CVV are hunted everywhere. */
  addCard(values: CardValues): void {
    const key = `${values.number ?? ''}|${values.cvv ?? ''}`;
    if ((!values.number && !values.cvv) || this.cardKeys.has(key)) return;
    this.cardKeys.add(key);
    this.cards.push({ pattern: values.number ? knownCardPattern(values.number) : undefined, cvv: values.cvv });
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
    for (const card of this.cards) out = maskKnownCvv(maskKnownCard(out, card.pattern), card.cvv);
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
      if (this.isSecret(value)) return REDACTED;
      if (cardKey && /^[\d\s-]{12,}$/.test(value)) return maskCardNumber(value);
      return notCard ? this.secretsOnly(value) : this.text(value);
    }
    if (typeof value === 'number') return !notCard && isCardNumber(value) ? maskCardNumber(value) : value;
    if (Array.isArray(value)) return value.map((v) => this.visit(v, key, false));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const lower = k.toLowerCase();
      if (CVV_KEYS.has(lower)) continue; // spec 2.5: never shown, whoever sent it
      out[this.secretsOnly(k)] = this.visit(v, lower, lower === 'card_details' || lower === 'card');
    }
    return out;
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
