// Folding text at spaces to a width: a detail view's long values (render.ts) and the error, hint,
// warning and note lines on a terminal's stderr (io.ts; contract, "Output rules": "Error and hint
// lines are wrapped at word boundaries to the terminal's width, like help"). A word longer than the
// room (a URL, an ID) is never split: it goes on a line of its own, whole, so it can be copied.

/** Colour codes (SGR): they take no columns on a terminal. */
// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a text takes on a terminal: colour codes take none. */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/**
 * Break text at spaces so no line is wider than `room`; continuation lines start with `pad`, but
 * for a word too long for the room: it starts at the margin, where the terminal cuts it the least
 * (not at all when it is no wider than the terminal).
 */
export function fold(text: string, room: number | undefined, pad: string): string {
  if (room === undefined || room < 10 || visibleWidth(text) <= room || text.includes('\n')) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && visibleWidth(candidate) > room) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  lines.push(line);
  return lines.map((l, i) => (i === 0 || visibleWidth(l) > room ? l : `${pad}${l}`)).join('\n');
}

/** A `next:` line: the command a person runs next, to be pasted whole. */
const NEXT = 'next: ';

/** Words of a command line: split at spaces outside quotes, so a quoted argument stays one word. */
function commandWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word += ch;
    } else if (ch === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else word += ch;
  }
  if (word !== '') words.push(word);
  return words;
}

/**
 * A `next:` line wider than `width`, folded so it still pastes as one command (issue 42 item 4):
 * breaks only between words outside quotes, every line but the last ends with ` \\` (the
 * shell's continuation), continuation lines are indented under the command. A word longer than a
 * line stays whole on its own line.
 */
export function foldCommand(line: string, width: number): string {
  if (!line.startsWith(NEXT) || visibleWidth(line) <= width) return line;
  const pad = ' '.repeat(NEXT.length);
  const lines: string[] = [];
  let current = NEXT.trimEnd();
  let words = 0;
  for (const word of commandWords(line.slice(NEXT.length))) {
    // Room for the ` \` that ends every line but the last.
    if (words > 0 && visibleWidth(`${current} ${word}`) + 2 > width) {
      lines.push(`${current} \\`);
      current = `${pad}${word}`;
      words = 1;
    } else {
      current = `${current} ${word}`;
      words++;
    }
  }
  lines.push(current);
  return lines.join('\n');
}

/** The labels of a message for a person: a line starting with one begins a message. */
const LABEL = /^(error|hint|warning|note): /;

/**
 * Messages in `text` folded to `width`: a labelled line continues under the text after its label
 * (`error: ` then 7 spaces), and the indented lines that follow it (a validation error's fields)
 * continue two spaces further in than they start, as does any other line with `everyLine` (a
 * diagnostic line of ctx.log). Otherwise any other line is left as it is: a table, help or a
 * summary, each already fitted by its own renderer.
 */
export function wrapMessages(text: string, width: number, opts: { everyLine?: boolean } = {}): string {
  let inMessage = false;
  return text
    .split('\n')
    .map((line) => {
      // A command to run next pastes whole: folded with \ continuations, never mid-word (issue 42).
      if (line.startsWith(NEXT)) {
        inMessage = false;
        return foldCommand(line, width);
      }
      const label = LABEL.exec(line)?.[0];
      if (label !== undefined) inMessage = true;
      else if (!line.startsWith(' ')) inMessage = opts.everyLine === true;
      if (!inMessage || visibleWidth(line) <= width) return line;
      const indent = label?.length ?? line.length - line.trimStart().length;
      const pad = label !== undefined ? indent : indent + 2;
      return `${line.slice(0, indent)}${fold(line.slice(indent), width - pad, ' '.repeat(pad))}`;
    })
    .join('\n');
}
