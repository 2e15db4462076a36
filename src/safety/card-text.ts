// Card numbers inside free text (a gateway's message, a log line, an HTML page, an ID someone
// pasted), in any of the groupings people and forms write them (spaces or dashes), without ever
// touching the gateway's own identifiers: OD/PR/ST/RF/CB + digits and UUIDs are not card numbers,
// however their digits fall under the Luhn check (about 1 in 10 order IDs does).

/** The Luhn check every payment card number passes (ISO/IEC 7812-1). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Digit groups joined by single spaces or dashes, not glued on their left: digits after a letter, a
 * digit or `_` belong to an identifier (OD31190213516414, sess_4000...), never to a card. The
 * gateway's identifiers start with their letters, so text glued on the right ("...5556declined")
 * does not make a card number an identifier.
 */
const CHAIN = /(?<![A-Za-z0-9_])\d+(?:[ -]\d+)*/g;
/**
 * Identifiers set aside before the search: UUIDs (any version, any case), whose groups are all
 * digits at times, and hex tokens of 32 characters or more (a checkout session_id, a hash): a
 * session_id leads with hex digits of the sandbox clock, and when its first 13-19 happen to be
 * decimal digits passing Luhn (2-4 % of them), the token was masked like a card and its checkout
 * address broken. A card number runs 13-19 digits: none stands glued to a 32-character hex token.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![A-Za-z0-9_])[0-9a-f]{32,}(?![A-Za-z0-9_])/gi;

/** The groupings cards are written in: 4-4-4-4(-3), 4-6-5 (Amex), 4-6-4 (Diners), or one run. */
function plausibleGrouping(groups: string[]): boolean {
  if (groups.length === 1) return true;
  const lengths = groups.map((g) => g.length);
  if (lengths.slice(0, -1).every((n) => n === 4) && lengths[lengths.length - 1]! <= 4) return true;
  return lengths.length === 3 && lengths[0] === 4 && lengths[1] === 6 && (lengths[2] === 4 || lengths[2] === 5);
}

/** First 6 and last 4 digits kept, the rest starred; the separators are kept where they were. */
function maskKeepingSeparators(text: string): string {
  const total = text.replace(/\D/g, '').length;
  let seen = 0;
  return text.replace(/\d/g, (d) => {
    seen++;
    return seen <= 6 || seen > total - 4 ? d : '*';
  });
}

/** Mask the card numbers of one chain of groups: the longest plausible Luhn-valid window first. */
function maskChain(chain: string): string {
  const parts = chain.split(/([ -])/); // groups at even indexes, separators at odd ones
  const groups = parts.filter((_, i) => i % 2 === 0);
  const masked = new Set<number>();
  for (let start = 0; start < groups.length; start++) {
    if (masked.has(start)) continue;
    for (let end = Math.min(groups.length, start + 5); end > start; end--) {
      const window = groups.slice(start, end);
      const digits = window.join('');
      if (digits.length < 13 || digits.length > 19 || !plausibleGrouping(window) || !luhnValid(digits)) continue;
      for (let i = start; i < end; i++) masked.add(i);
      const text = parts.slice(start * 2, end * 2 - 1).join('');
      const maskedText = maskKeepingSeparators(text);
      parts.splice(start * 2, end * 2 - 1 - start * 2, ...maskedText.split(/([ -])/));
      start = end - 1;
      break;
    }
  }
  return parts.join('');
}

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![A-Za-z0-9_])[0-9a-f]{32,}(?![A-Za-z0-9_])/i;
const maskChainOf = (chain: string): string => (chain.replace(/\D/g, '').length < 13 ? chain : maskChain(chain));

/** Every card number standing in a text, masked to first 6 / last 4; identifiers left as they are. */
export function maskCardsInText(text: string): string {
  if (!/\d{4}/.test(text)) return text;
  if (!UUID_ANYWHERE.test(text)) return text.replace(CHAIN, maskChainOf);
  // Each UUID is set aside behind a private-use mark the text does not already hold.
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code++;
  const mark = String.fromCharCode(code);
  const uuids: string[] = [];
  const held = text.replace(UUID, (id) => `${mark}${uuids.push(id) - 1}${mark}`);
  const out = held.replace(CHAIN, maskChainOf);
  return out.replace(new RegExp(`${mark}(\\d+)${mark}`, 'g'), (found, i: string) => uuids[Number(i)] ?? found);
}

/**
 * A card number we know (the one a request carried), found however it was written: with any
 * spaces or dashes between its digits, glued to other text or not.
 */
export function knownCardPattern(number: string): RegExp | undefined {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12) return undefined;
  return new RegExp(digits.split('').join('[ -]?'), 'g');
}

export function maskKnownCard(text: string, pattern: RegExp | undefined): string {
  return pattern ? text.replace(pattern, (found) => maskKeepingSeparators(found)) : text;
}

/**
 * A CVV we know, where it stands alone in a text (`value="987"`, `cvv 987`): never inside a number,
 * an ID, a token or base64, and never a bare JSON number (a count that happens to equal it).
 */
export function maskKnownCvv(text: string, cvv: string | undefined): string {
  if (!cvv || !/^[0-9]{3,4}$/.test(cvv) || !text.includes(cvv)) return text;
  const alone = new RegExp(`(?<![0-9A-Za-z+/_.-])${cvv}(?![0-9A-Za-z+/_-]|\\.[0-9A-Za-z])`, 'g');
  return text.replace(alone, (found, at: number) => (bareJsonNumber(text, at, found.length) ? found : '***'));
}

/** `"count": 739` or an element of a pretty-printed array: JSON.stringify's own layout, not prose. */
function bareJsonNumber(text: string, at: number, length: number): boolean {
  const before = text.slice(Math.max(0, at - 200), at);
  const after = text.slice(at + length).trimStart().charAt(0);
  return /(?:":|[[,]\n)\s*$/.test(before) && /^[,\]}]?$/.test(after);
}
