// Messages on a terminal's stderr fold at spaces (issue 33 item 13): under the text after their
// label, details two spaces further in, a word too long for the room on a line of its own.
import { describe, expect, it } from 'vitest';
import { fold, foldCommand, wrapMessages } from '../../src/output/fold.js';

const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('wrapMessages', () => {
  it('folds an error under the text after its label, and a hint under its own', () => {
    const text = `error: ${'word '.repeat(30).trim()}\nhint: ${'more '.repeat(20).trim()}\n`;
    const out = wrapMessages(text, 40);
    expect(widest(out)).toBeLessThanOrEqual(40);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: word/);
    expect(lines[1]).toMatch(/^ {7}word/);
    const hint = lines.findIndex((l) => l.startsWith('hint: '));
    expect(lines[hint + 1]).toMatch(/^ {6}more/);
    // Nothing is lost or split: read across the folds, it is the text given.
    expect(out.replace(/\n +/g, ' ')).toBe(text);
  });

  it("folds an error's indented detail lines two spaces further in", () => {
    const out = wrapMessages(`error: invalid order: 2 problems\n  --amount: ${'must be '.repeat(8).trim()}\n`, 40);
    expect(out.split('\n')[2]).toMatch(/^ {4}must/);
    expect(widest(out)).toBeLessThanOrEqual(40);
  });

  it('never splits a word longer than the room: it takes a line of its own, at the margin', () => {
    // 52 characters: it fits the room after `error: ` (53), so it continues under the text.
    const fits = `http://127.0.0.1:4210/${'x'.repeat(30)}`;
    expect(wrapMessages(`error: the sandbox at ${fits} was not ready within 1s\n`, 60).split('\n')).toContain(`       ${fits}`);
    // 57: too long for the room, not for the terminal: at the margin, where it is whole on screen.
    const url = `http://127.0.0.1:4210/${'x'.repeat(35)}`;
    const out = wrapMessages(`error: the sandbox at ${url} was not ready within 1s\n`, 60);
    expect(out.split('\n')).toEqual(['error: the sandbox at', url, '       was not ready within 1s', '']);
    const longer = `http://127.0.0.1:4210/${'y'.repeat(80)}`;
    expect(wrapMessages(`hint: open ${longer} in a browser`, 60).split('\n')).toContain(longer);
  });

  it('leaves other lines as they are (tables, help, summaries), unless every line is a message', () => {
    const line = `page 1 of 3: ${'next '.repeat(20).trim()}`;
    expect(wrapMessages(`${line}\n`, 40)).toBe(`${line}\n`);
    expect(widest(wrapMessages(`${line}\n`, 40, { everyLine: true }))).toBeLessThanOrEqual(40);
    expect(wrapMessages('error: short\n', 40)).toBe('error: short\n');
  });

  it('counts colour codes as no width', () => {
    const red = (s: string) => `\u001b[31m${s}\u001b[39m`;
    expect(wrapMessages(`error: ${red('x'.repeat(30))}`, 40)).not.toContain('\n');
  });
});

describe('fold', () => {
  it('continues under the pad; a room under 10 folds nothing', () => {
    expect(fold('aaa bbb ccc ddd', 11, '  ')).toBe('aaa bbb ccc\n  ddd');
    expect(fold('aaa bbb ccc ddd', 5, '  ')).toBe('aaa bbb ccc ddd');
  });
});

describe('foldCommand: a next: line pastes as one command (issue 42 item 4)', () => {
  const line = "next: pgw payment verify PR8792905310 --field business_model=<value> --field purpose_code=<value> --document invoice=<file> --field buyer_city='New Delhi Central'";
  it('breaks between words outside quotes, each line ending with a backslash, none wider than the room', () => {
    const folded = foldCommand(line, 50).split('\n');
    expect(folded.length).toBeGreaterThan(1);
    for (const l of folded) expect(l.length).toBeLessThanOrEqual(50);
    for (const l of folded.slice(0, -1)) expect(l.endsWith(' \\')).toBe(true);
    expect(folded.at(-1)!.endsWith('\\')).toBe(false);
    expect(folded.slice(1).every((l) => l.startsWith('      '))).toBe(true);
    // Joined as a shell joins continuations: the command, word for word, the quoted value whole.
    expect(folded.map((l) => l.replace(/ \\$/, '').trim()).join(' ')).toBe(line);
    expect(folded.some((l) => l.includes("buyer_city='New Delhi Central'"))).toBe(true);
  });
  it('leaves a line that fits, and any line that is not next:', () => {
    expect(foldCommand('next: pgw refund get RF1234567890', 80)).toBe('next: pgw refund get RF1234567890');
    expect(foldCommand(`hint: ${'x '.repeat(60)}`, 40)).toBe(`hint: ${'x '.repeat(60)}`);
  });
  it('is how stderr folds next: lines on a terminal, whichever way they were written', () => {
    for (const everyLine of [false, true]) {
      const out = wrapMessages(`${line}\n`, 80, { everyLine });
      expect(out.split('\n')[0]).toMatch(/ \\$/);
      expect(widest(out)).toBeLessThanOrEqual(80);
    }
  });
});
