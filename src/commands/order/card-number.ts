// What pgw can tell from a card number before sending it: whether it is one (the Luhn check),
// which network issued it (the number's prefix), and the sandbox's test cards to pick from.

/** The sandbox's cards (docs/sandbox.md): any Luhn-valid number works; one ending in 0002 fails. */
export const TEST_CARDS = [
  { number: '4111111111111111', network: 'visa', outcome: 'succeeds' },
  { number: '5555555555554444', network: 'mastercard', outcome: 'succeeds' },
  { number: '6521000000000007', network: 'rupay', outcome: 'succeeds' },
  { number: '4000000000000002', network: 'visa', outcome: 'fails: ends in 0002' },
] as const;

export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The network a number's prefix (IIN) belongs to; undefined when pgw does not know it. */
export function networkOf(digits: string): 'visa' | 'mastercard' | 'rupay' | 'amex' | 'diners' | 'discover' | undefined {
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6521|6522|508|81|82)/.test(digits) || (/^60/.test(digits) && !digits.startsWith('6011'))) return 'rupay';
  if (/^(6011|64[4-9]|65)/.test(digits)) return 'discover';
  if (/^(36|38|30[0-5])/.test(digits)) return 'diners';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (digits.startsWith('4')) return 'visa';
  return undefined;
}

/**
 * "411111******1111  visa, succeeds", for a select list: masked like every card number pgw prints,
 * test cards included (no output of pgw holds a whole card number).
 */
export function testCardLabel(card: (typeof TEST_CARDS)[number]): string {
  return `${card.number.slice(0, 6)}${'*'.repeat(card.number.length - 10)}${card.number.slice(-4)}  ${card.network}, ${card.outcome}`;
}
