// Building blocks for the generated-input suites: valid values of the spec's field kinds (names,
// addresses, phones, emails, URLs, dates, amounts, IDs), each reaching its length bounds now and
// then, and the bad values of each kind. Every character set is BMP, so a string's length is the
// number of characters zod counts.
import fc from 'fast-check';

export const LETTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéñüßøłЖжअকதé'];
export const DIGITS = [...'0123456789'];
const ALNUM_ASCII = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
/** Printable text for free-form fields (product name, descriptions): no control characters. */
export const PRINTABLE = [...LETTERS, ...DIGITS, ...` .,;:!?'"()[]{}<>@#$%&*+=/\\|_~^-`, 'é', '€', '₹'];

/** The clock generated card expiries are relative to (given to the schemas and to runCli). */
export const NOW = new Date('2026-06-15T12:00:00Z');

export const chars = (set: readonly string[]) => fc.constantFrom(...set);

/**
 * Text of `inner` characters that starts and ends with one of `edge` (so it is already trimmed),
 * 1 to `max` long; now and then exactly `max` long, the bound itself.
 */
export function trimmed(edge: readonly string[], inner: readonly string[], max: number): fc.Arbitrary<string> {
  const middle = fc.string({ unit: chars(inner), maxLength: Math.max(0, Math.min(max - 2, 40)) });
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(chars(edge), middle, chars(edge)).map(([a, m, b]) => (max === 1 ? a : `${a}${m}${b}`)) },
    { weight: 1, arbitrary: chars(edge) },
    { weight: 1, arbitrary: fc.tuple(chars(edge), chars(edge)).map(([a, b]) => a + b.repeat(max - 1)) },
  );
}

/** `n` characters of `set`, at least `min`: for the "one too long" mutations. */
export const exactly = (set: readonly string[], n: number) => fc.string({ unit: chars(set), minLength: n, maxLength: n });

/** Free text at most `max` long (possibly empty): optional descriptions. */
export const freeText = (max: number) => trimmed(PRINTABLE.filter((c) => c !== ' '), PRINTABLE, max);

/**
 * Letters written with combining marks: Indic vowel signs and viramas (मि, की, ष्), and Latin
 * letters in decomposed form (e + U+0301), as a name or city is typed in Hindi or pasted from a
 * system that stores NFD. Kept to the middle of a value, so a length bound still counts right.
 */
export const MARKED = ['मि', 'की', 'ष्', 'दि', 'e\u0301', 'n\u0303'];

/** spec 2.2 name: letters, spaces and . , - ' */
export const personName = trimmed(LETTERS, [...LETTERS, ...MARKED, ' ', '.', ',', '-', "'"], 255);
/** spec 2.2.1 city and state: alphabetic (spaces between words). */
export const alphaText = trimmed(LETTERS, [...LETTERS, ...MARKED, ' '], 255);
/** spec 2.2.1 address line: letters, numbers, spaces and , . - / # */
export const addressLine = trimmed([...LETTERS, ...DIGITS], [...LETTERS, ...MARKED, ...DIGITS, ' ', ',', '.', '-', '/', '#'], 255);

export const postalCode = fc.string({ unit: chars(ALNUM_ASCII), minLength: 6, maxLength: 6 });

/** E.164-ish: + then 8-15 digits, the first not 0, in groups joined by one space or dash. */
export const phone = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 7, maxLength: 14 }), fc.array(fc.constantFrom('', ' ', '-'), { minLength: 14, maxLength: 14 }))
  .map(([first, rest, seps]) => `+${first}${rest.map((d, i) => `${seps[i]}${d}`).join('')}`);

// A label starting `xn--` is punycode, and an arbitrary tail is not valid punycode: URL parsers
// (and the schemas' z.url) rightly refuse `https://xn--a.0.com/`. Such labels are left out.
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--'));
export const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'in', 'org', 'example', 'co'))
  .map(([labels, tld]) => `${labels.join('.')}.${tld}`);

export const email = fc
  .tuple(fc.array(fc.stringMatching(/^[A-Za-z0-9_+-]{1,10}$/), { minLength: 1, maxLength: 3 }), domain)
  .map(([local, host]) => `${local.join('.')}@${host}`);

/** http(s) addresses, the sandbox's own http://127.0.0.1:port included. */
export const httpUrl = fc
  .tuple(
    fc.constantFrom('https', 'http'),
    fc.oneof(domain, fc.constant('127.0.0.1'), fc.constant('localhost')),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    fc.array(fc.stringMatching(/^[A-Za-z0-9_.~-]{1,10}$/), { maxLength: 3 }),
    fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{1,5}$/), { nil: undefined }),
  )
  .map(([scheme, host, port, path, query]) => `${scheme}://${host}${port ? `:${port}` : ''}/${path.join('/')}${query ? `?${query}` : ''}`);

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => (m === 2 && leap(y) ? 29 : DAYS[m - 1]!);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A day that exists, `YYYY-MM-DD` (29 February of leap years included). */
export const realDate = fc
  .tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => `${y}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}`);

/** Dates that do not exist or are not written YYYY-MM-DD. */
export const badDate = fc.oneof(
  fc.tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${pad(m)}-${pad(daysIn(y, m) + 1)}`),
  fc.tuple(fc.integer({ min: 1900, max: 2099 }), fc.constantFrom(0, 13, 19)).map(([y, m]) => `${y}-${pad(m)}-10`),
  realDate.map((d) => d.replace(/-/g, '/')),
  realDate.map((d) => d.split('-').reverse().join('-')),
  realDate.map((d) => d.replace(/-0/g, '-')).filter((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d)),
  fc.constantFrom('2026-02-29', '2100-02-29', '20260101', '', 'yesterday'),
);

/** Amounts as paise: 0.01 to 10,000,000.00, the bounds themselves often. */
export const MAX_PAISE = 1_000_000_000n;
export const paise = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt(1n, MAX_PAISE) },
  { weight: 1, arbitrary: fc.bigInt(1n, 10_000n) },
  { weight: 1, arbitrary: fc.constantFrom(1n, 100n, MAX_PAISE - 1n, MAX_PAISE) },
);

/** The 2-decimal string, computed without money.ts (the reference the CLI's output is held to). */
export function paiseText(p: bigint): string {
  const sign = p < 0n ? '-' : '';
  const a = p < 0n ? -p : p;
  return `${sign}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/**
 * Ways a user may write an amount the CLI normalises to `paiseText(p)`: the 2-decimal string,
 * shorter forms ("1500", "1500.5"), leading zeros, and a JSON number.
 */
export function amountForms(p: bigint): fc.Arbitrary<string | number> {
  const exact = paiseText(p);
  const forms: (string | number)[] = [exact, `0${exact}`, Number(exact)];
  if (p % 10n === 0n) forms.push(exact.slice(0, -1));
  if (p % 100n === 0n) forms.push(exact.slice(0, -3));
  return fc.constantFrom(...forms);
}

/** Amounts the order rules refuse: zero, above the maximum, 3 decimals, not a decimal string. */
export const badAmount = fc.oneof(
  fc.constantFrom('0', '0.00', '0.0', '10000000.01', '-1.00', '1,500.00', '1e3', '12.', '.5', 'abc', '', ' ', '1500.00 INR', '+15.00'),
  fc.bigInt(MAX_PAISE + 1n, MAX_PAISE * 1000n).map(paiseText),
  fc.tuple(fc.bigInt(0n, MAX_PAISE / 100n), fc.integer({ min: 0, max: 999 })).map(([r, f]) => `${r}.${String(f).padStart(3, '0')}`),
);

/** Path-safe identifiers as the CLI takes them (letters, digits, _ and -; never a leading -). */
export const identifier = (max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,${max - 1}}$`));

/**
 * Whether any text in `value` could be shown masked as a card number: a chain of digit groups joined
 * by single spaces or dashes, not glued on its left to a letter, digit or `_`, where up to five
 * consecutive groups hold 13 to 19 digits. A superset of what the output guard masks
 * (src/safety/card-text.ts adds the Luhn check and the card groupings), written without it: a
 * generated free-text field now and then is such a number (")000000000000000" is a postal code
 * the schema allows, and passes the Luhn check), and pgw rightly never prints one. The properties
 * that compare what pgw prints with what was sent keep to values this says no to; the masked case
 * has its own tests.
 */
export function mayShowAsCard(value: unknown): boolean {
  const text = JSON.stringify(value) ?? '';
  for (const [chain] of text.matchAll(/(?<![A-Za-z0-9_])\d+(?:[ -]\d+)*/g)) {
    const sizes = chain.split(/[ -]/).map((g) => g.length);
    for (let start = 0; start < sizes.length; start++) {
      let digits = 0;
      for (let end = start; end < Math.min(sizes.length, start + 5); end++) {
        digits += sizes[end]!;
        if (digits >= 13 && digits <= 19) return true;
      }
    }
  }
  return false;
}
