// Messages on a terminal's stderr fold at spaces (issue 33 item 13): under the text after their
// label, details two spaces further in, a word too long for the room on a line of its own.
import { describe, expect, it } from 'vitest';
import { fold, wrapMessages } from '../../src/output/fold.js';

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
