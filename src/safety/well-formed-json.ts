// JSON text may spell a lone surrogate as an escape ("\ud800": valid JSON, not valid Unicode), and
// JSON.parse hands it on as is. Written to SQLite it becomes the surrogate's three WTF-8 bytes,
// read back as three U+FFFD (issue 31 item 10), and elsewhere it is text no UTF-8 can carry. The
// sandbox rewrites such escapes before parsing, each lone surrogate to one U+FFFD: what
// String.prototype.toWellFormed() makes of every string and key of the parsed value, done on the
// text so that no walk of a deeply nested value is needed. A pair of escapes that spells one
// character stays.

/** Any escape of a surrogate: the cheap test that leaves almost every body untouched. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/**
 * Every escape, left to right, so `\\` is consumed whole and `\\ud800` (a backslash, then text)
 * is never read as an escape: a high surrogate with the low one right after it (a pair), a lone
 * high or low surrogate, or any other escape (kept).
 */
const ESCAPE = /\\(?:u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2}|[^])/g;

/** JSON text whose lone surrogate escapes are `\ufffd`; valid JSON stays valid, invalid stays invalid. */
export function wellFormedJsonText(text: string): string {
  if (!SURROGATE_ESCAPE.test(text)) return text;
  return text.replace(ESCAPE, (escape: string, high: string | undefined, low: string | undefined) => {
    if (high !== undefined) return low !== undefined ? escape : '\\ufffd';
    return /^\\u[dD][c-fC-F]/.test(escape) ? '\\ufffd' : escape;
  });
}
