// One way to say why a JSON document is malformed, shared by every --file reader and the sandbox.

/**
 * Why JSON.parse refused `text`, with a line and column where V8 gives a position, and never a
 * piece of the input: V8 quotes excerpts (`Unexpected token 'x', ..."87, "n": x}"`) that may hold
 * a CVV or a card number.
 */
export function jsonReason(message: string, text: string): string {
  const at = /at position (\d+)/.exec(message);
  let where = '';
  if (at) {
    const before = text.slice(0, Number.parseInt(at[1]!, 10)).split('\n');
    where = ` at line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
  } else {
    // Newer V8 messages quote the text around the error instead of a position: use it only to
    // find the line, then drop it.
    const excerpt = /, (?:\.\.\.)?"(.*)"(?:\.\.\.)? is not valid JSON$/s.exec(message)?.[1];
    const index = excerpt ? text.indexOf(excerpt) : -1;
    if (index >= 0) where = ` near line ${text.slice(0, index + excerpt!.length).split('\n').length}`;
  }
  // Messages that quote the input say only which character was unexpected: keep none of it.
  if (/ is not valid JSON$/s.test(message)) return `unexpected character${where}`;
  // The others (`Expected ',' or '}' after property value in JSON at position 6`) carry no input.
  return `${message.replace(/\s+in JSON at position \d+.*$/s, '')}${where}`;
}

/** Far deeper than any request body of the spec (4 levels), far below where recursion runs out. */
export const MAX_JSON_DEPTH = 100;

/**
 * JSON.parse for input files and stdin, refusing documents nested deeper than MAX_JSON_DEPTH: V8
 * parses 20,000 levels, but every walk over the value afterwards (validation, masking for a dry
 * run) would run out of stack. Throws a SyntaxError, as JSON.parse does, so callers say why once.
 */
export function parseJsonText(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (value !== null && typeof value === 'object' && deeperThanAllowed(value, 1)) throw new SyntaxError(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  return value;
}

/**
 * Whether `node` (at `depth`) or anything in it lies deeper than MAX_JSON_DEPTH. Recursive, so
 * never more than MAX_JSON_DEPTH + 1 frames, and allocating nothing: every answer the client
 * reads passes here (400 look-ups, 400 answers).
 */
function deeperThanAllowed(node: object, depth: number): boolean {
  if (depth > MAX_JSON_DEPTH) return true;
  if (Array.isArray(node)) {
    for (const child of node) if (child !== null && typeof child === 'object' && deeperThanAllowed(child, depth + 1)) return true;
    return false;
  }
  for (const key in node) {
    const child = (node as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && deeperThanAllowed(child, depth + 1)) return true;
  }
  return false;
}
