// Card numbers inside free text (a gateway's message, a log line, an HTML page, an ID someone
// pasted), in any of the groupings people and forms write them, without ever touching the
// gateway's own identifiers: OD/PR/ST/RF/CB + digits and UUIDs are not card numbers, however their
// digits fall under the Luhn check (about 1 in 10 order IDs does).
//
// "Written" includes what a copy from a PDF, a chat or a spreadsheet gives (issue 44 item 9): the
// digits of any script (full-width ４０００, Arabic-Indic, Devanagari, ...), and between the groups
// any space (no-break U+00A0, thin U+2009, narrow no-break U+202F, ideographic), any dash (en, em,
// non-breaking hyphen, minus), dots, underscores, slashes, their full-width forms, and the invisible
// characters a copy can carry (soft hyphen, zero-width space and joiners, word joiner).

/** The Luhn check every payment card number passes (ISO/IEC 7812-1). `digits`: ASCII 0-9. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** A decimal digit of any script. */
const DIGIT = String.raw`\p{Nd}`;
/** A mark between digit groups: dashes, the minus sign, dots, underscores, slashes (and full-width forms), invisible joiners. */
const MARK = String.raw`[\p{Pd}\u2212.\u00B7\u2024\uFF0E_\uFF3F/\u2044\u2215\uFF0F\u00AD\u200B-\u200D\u2060\uFEFF]`;
/**
 * What may stand between two groups: one mark with at most one space on either side (`4000 - 0566`),
 * or one space of any width. Two spaces are not a gap: they part the columns of a table.
 */
const GAP = String.raw`(?:\p{Zs}?${MARK}\p{Zs}?|\p{Zs})`;
/** Glued on the left to a letter, digit, combining mark or underscore: part of an identifier. */
const GLUED_LEFT = String.raw`(?<![\p{L}\p{N}\p{M}_\uFF3F])`;

/**
 * Digit groups joined by gaps, not glued on their left: digits after a letter, a digit or `_`
 * belong to an identifier (OD31190213516414, sess_4000...), never to a card. The gateway's
 * identifiers start with their letters, so text glued on the right ("...5556declined") does not
 * make a card number an identifier.
 */
const CHAIN = new RegExp(`${GLUED_LEFT}${DIGIT}+(?:${GAP}${DIGIT}+)*`, 'gu');
const GAP_SPLIT = new RegExp(`(${GAP})`, 'u');
/** Digits however they are joined, glued to anything: where a known card number is hunted. */
const DIGIT_RUN = new RegExp(`${DIGIT}(?:${GAP}?${DIGIT})*`, 'gu');
const ONE_DIGIT = /\p{Nd}/u;
const ANY_DIGIT = /\p{Nd}/gu;
/** Every grouping of a card has a group of 4 digits or more (below): text without one holds none. */
const FOUR_DIGITS = /\p{Nd}{4}/u;

/**
 * A text that might hold a card number, for a quick test before the masks (output/guard.ts): at
 * least as wide as the masks, never narrower. `known`: a card of this run, found glued too.
 */
export function cardCandidatePattern(known: boolean): RegExp {
  return new RegExp(known ? `${DIGIT}(?:${GAP}?${DIGIT}){11}` : `${GLUED_LEFT}${DIGIT}(?:${GAP}?${DIGIT}){12}`, 'u');
}

const digitValues = new Map<number, number>();
/**
 * The value of a decimal digit of any script. Unicode assigns decimal digits only in runs of ten
 * code points, 0 to 9 in order, and runs may sit side by side (the mathematical digits): the value
 * is the distance from the first digit of the block, modulo 10.
 */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp >= 48 && cp <= 57) return cp - 48;
  let value = digitValues.get(cp);
  if (value === undefined) {
    let first = cp;
    while (first > 0 && ONE_DIGIT.test(String.fromCodePoint(first - 1))) first--;
    value = (cp - first) % 10;
    digitValues.set(cp, value);
  }
  return value;
}

/** The digits of a text as ASCII 0-9, whatever script they were written in. */
export function asciiDigits(text: string): string {
  let out = '';
  for (const ch of text.match(ANY_DIGIT) ?? []) out += String(digitValue(ch));
  return out;
}

/** The groupings cards are written in: 4-4-4-4(-3), 4-6-5 (Amex), 4-6-4 (Diners), or one run. */
function plausibleGrouping(lengths: number[]): boolean {
  if (lengths.length === 1) return true;
  if (lengths.slice(0, -1).every((n) => n === 4) && lengths[lengths.length - 1]! <= 4) return true;
  return lengths.length === 3 && lengths[0] === 4 && lengths[1] === 6 && (lengths[2] === 4 || lengths[2] === 5);
}

/** Stars for the digits of `text` numbered (from 1) above `keepFirst` and up to `lastToStar`; gaps kept. */
function starDigits(text: string, seenBefore: number, keepFirst: number, lastToStar: number): { text: string; seen: number } {
  let seen = seenBefore;
  const out = text.replace(ANY_DIGIT, (d) => {
    seen++;
    return seen > keepFirst && seen <= lastToStar ? '*' : d;
  });
  return { text: out, seen };
}

/** Mask the card numbers of one chain of groups: the longest plausible Luhn-valid window first. */
function maskChain(chain: string): string {
  const parts = chain.split(GAP_SPLIT); // groups at even indexes, gaps at odd ones
  const groups = parts.filter((_, i) => i % 2 === 0);
  const lengths = groups.map((g) => [...g].length);
  const values = groups.map(asciiDigits);
  for (let start = 0; start < groups.length; start++) {
    for (let end = Math.min(groups.length, start + 5); end > start; end--) {
      const digits = values.slice(start, end).join('');
      if (digits.length < 13 || digits.length > 19 || !plausibleGrouping(lengths.slice(start, end)) || !luhnValid(digits)) continue;
      // First 6 and last 4 digits kept, the rest starred, each group and gap where it was.
      let seen = 0;
      for (let i = start; i < end; i++) {
        const masked = starDigits(parts[i * 2]!, seen, 6, digits.length - 4);
        parts[i * 2] = masked.text;
        seen = masked.seen;
      }
      start = end - 1;
      break;
    }
  }
  return parts.join('');
}

/**
 * Identifiers set aside before the search: UUIDs (any version, any case), whose groups are all
 * digits at times, and hex tokens of 32 characters or more (a checkout session_id, a hash): a
 * session_id leads with hex digits of the sandbox clock, and when its first 13-19 happen to be
 * decimal digits passing Luhn (2-4 % of them), the token was masked like a card and its checkout
 * address broken. A card number runs 13-19 digits: none stands glued to a 32-character hex token.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![A-Za-z0-9_])[0-9a-f]{32,}(?![A-Za-z0-9_])/gi;
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![A-Za-z0-9_])[0-9a-f]{32,}(?![A-Za-z0-9_])/i;
const maskChainOf = (chain: string): string => (chain.length < 13 ? chain : maskChain(chain));

/** Every card number standing in a text, masked to first 6 / last 4; identifiers left as they are. */
export function maskCardsInText(text: string): string {
  if (!FOUR_DIGITS.test(text)) return text;
  if (!UUID_ANYWHERE.test(text)) return text.replace(CHAIN, maskChainOf);
  // Each UUID is set aside behind a private-use mark the text does not already hold (no digit, no gap).
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code++;
  const mark = String.fromCharCode(code);
  const uuids: string[] = [];
  const held = text.replace(UUID, (id) => `${mark}${uuids.push(id) - 1}${mark}`);
  const out = held.replace(CHAIN, maskChainOf);
  return out.replace(new RegExp(`${mark}(\\d+)${mark}`, 'g'), (found, i: string) => uuids[Number(i)] ?? found);
}

/** The digits of a card number we know (the one a request carried), if it is long enough to hunt. */
export function knownCardDigits(number: string): string | undefined {
  const digits = asciiDigits(number);
  return digits.length < 12 ? undefined : digits;
}

/**
 * A card number we know, found however it was written: in any script, with any gaps between its
 * digits, glued to other text or not. First 6 and last 4 kept.
 */
export function maskKnownCard(text: string, digits: string | undefined): string {
  if (!digits) return text;
  return text.replace(DIGIT_RUN, (run) => {
    if (run.length < digits.length) return run;
    const chars = [...run];
    const at: number[] = []; // index in chars of each digit
    let values = '';
    chars.forEach((ch, i) => {
      if (ONE_DIGIT.test(ch)) {
        at.push(i);
        values += String(digitValue(ch));
      }
    });
    let changed = false;
    for (let from = values.indexOf(digits); from !== -1; from = values.indexOf(digits, from + digits.length)) {
      for (let k = 6; k < digits.length - 4; k++) chars[at[from + k]!] = '*';
      changed = true;
    }
    return changed ? chars.join('') : run;
  });
}

/** A digit of another script than ASCII's (where a known CVV may hide in other digits). */
export const NON_ASCII_DIGIT = /[^\P{Nd}0-9]/u;

const CVV_ALONE = /(?<![\p{N}A-Za-z+/_.-])\p{Nd}{3,4}(?![\p{N}A-Za-z+/_-]|\.[\p{N}A-Za-z])/gu;

/**
 * A CVV we know, where it stands alone in a text (`value="987"`, `cvv 987`, in any script's
 * digits): never inside a number, an ID, a token or base64, and never a bare JSON number (a count
 * that happens to equal it).
 */
export function maskKnownCvv(text: string, cvv: string | undefined): string {
  if (!cvv || !/^[0-9]{3,4}$/.test(cvv) || (!text.includes(cvv) && !NON_ASCII_DIGIT.test(text))) return text;
  return text.replace(CVV_ALONE, (found, at: number) => (asciiDigits(found) !== cvv || bareJsonNumber(text, at, found.length) ? found : '***'));
}
/** `"count": 739` or an element of a pretty-printed array: JSON.stringify's own layout, not prose. */
function bareJsonNumber(text: string, at: number, length: number): boolean {
  const before = text.slice(Math.max(0, at - 200), at);
  const after = text.slice(at + length).trimStart().charAt(0);
  return /(?:":|[[,]\n)\s*$/.test(before) && /^[,\]}]?$/.test(after);
}
