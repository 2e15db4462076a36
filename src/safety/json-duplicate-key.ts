// Finds a key written twice in one JSON object. JSON.parse keeps the last value and says nothing
// (a reviver sees only the parsed object, so it cannot tell either), while other readers keep the
// first: a body with a duplicate key means different things to different receivers. The webhook
// signature's sorted-keys fallback re-serialises the last-wins object, so a key put in front of
// the signed ones would verify while a first-wins reader acts on it (issue 31 item 7).
// Imports nothing of pgw: webhook-signature.ts (shared by the sandbox and commands) uses it.

export interface DuplicateKey {
  /** The key as a parser reads it: escapes undone, so "a_b" and "a\u005fb" are one key. */
  key: string;
  /** Where the object holding it is: '' for the top level, else like `data.items[0]`. */
  path: string;
}

interface Frame {
  /** The keys seen so far; null for an array. */
  keys: Set<string> | null;
  path: string;
  /** The last key read (objects) or the current element's index (arrays): names a child's path. */
  key: string;
  index: number;
}

/** Index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++; // a backslash: the next character is escaped, even a quote
    else if (c === 0x22) return i;
  }
  return text.length - 1;
}

function childPath(frame: Frame | undefined): string {
  if (!frame) return '';
  if (frame.keys === null) return `${frame.path}[${frame.index}]`;
  return frame.path === '' ? frame.key : `${frame.path}.${frame.key}`;
}

/**
 * The first key that appears twice in the same object, at any depth, or undefined. `text` must be
 * JSON that JSON.parse accepted (callers parse first): the scan only follows strings and brackets,
 * iteratively, so nesting depth costs no stack.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  // True where the next string is an object's key (after `{` or an object's `,`), not a value.
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        // JSON.parse of the literal undoes every escape exactly as the body's parser did.
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, path: top.path };
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      stack.push({ keys: c === '{' ? new Set() : null, path: childPath(stack[stack.length - 1]), key: '', index: 0 });
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.keys === null) top.index++;
      expectKey = top?.keys != null;
    }
  }
  return undefined;
}
