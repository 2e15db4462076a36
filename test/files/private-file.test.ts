// src/files/private-file.ts, the one way pgw creates a file (issue 31 item 8): never through a link
// planted at the target or at any name pgw could use beside it, owner-only whatever the umask.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateFile, fileProblem, openNoFollow, writePrivateFile } from '../../src/files/private-file.js';

let dir: string;
/** Where planted links point: nothing may ever be written here. */
let outside: string;
let umask: number;

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'pgw-private-file-'));
  dir = join(root, 'target-dir');
  outside = join(root, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  umask = process.umask();
});
afterEach(() => {
  process.umask(umask);
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;
const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
  return undefined;
};

describe('writePrivateFile', () => {
  it('writes the file whole, 0600 even under a umask that would make it 0400', () => {
    process.umask(0o277);
    const path = join(dir, 'ready');
    writePrivateFile(path, '{"a":1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['ready']); // no temporary file left beside it
  });

  it('replaces an existing file (a new one, 0600), never writing into the old one', () => {
    const path = join(dir, 'page.html');
    writeFileSync(path, 'old', { mode: 0o644 });
    const before = statSync(path).ino;
    writePrivateFile(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(mode(path)).toBe(0o600);
    expect(statSync(path).ino).not.toBe(before);
  });

  it.each([
    ['dangling', false],
    ['to an existing file', true],
  ])('refuses a link at the target (%s): ELOOP, nothing written anywhere, the link left as it was', (_, targetExists) => {
    const loot = join(outside, 'loot');
    if (targetExists) writeFileSync(loot, 'theirs', { mode: 0o644 });
    const path = join(dir, 'ready');
    symlinkSync(loot, path);
    expect(code(() => writePrivateFile(path, 'secret'))).toBe('ELOOP');
    expect(targetExists ? readFileSync(loot, 'utf8') : existsSync(loot)).toBe(targetExists ? 'theirs' : false);
    expect(readlinkSync(path)).toBe(loot);
    expect(readdirSync(dir)).toEqual(['ready']);
  });

  it("never writes through a link planted at a name it could use beside the target (the old ready.<pid>.tmp too)", () => {
    const path = join(dir, 'ready');
    // The names the old code used, and any short-random name: none of them is the one it takes.
    const planted = [`ready.${process.pid}.tmp`, `.ready.${process.pid}.tmp`, ...Array.from({ length: 50 }, (_, i) => `.ready.${i.toString(16)}.tmp`)];
    for (const name of planted) symlinkSync(join(outside, name), join(dir, name));
    writePrivateFile(path, 'secret');
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe('secret');
    expect(readdirSync(dir).sort()).toEqual([...planted, 'ready'].sort());
  });

  it('a failed rename (the target is a directory) leaves no temporary file', () => {
    const path = join(dir, 'taken');
    mkdirSync(path);
    expect(code(() => writePrivateFile(path, 'x'))).toMatch(/^E/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});

describe('createPrivateFile', () => {
  it('creates the file, 0600 under any umask, for appending', () => {
    process.umask(0o277);
    const path = join(dir, 'res.jsonl');
    const fd = createPrivateFile(path);
    writeSync(fd, 'a\n');
    writeSync(fd, 'b\n');
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
    expect(mode(path)).toBe(0o600);
  });

  it('refuses anything already there: a file (EEXIST, left as it was), a dangling link or a link to a file (ELOOP, nothing created)', () => {
    const file = join(dir, 'exists.jsonl');
    writeFileSync(file, 'earlier run\n');
    expect(code(() => createPrivateFile(file))).toBe('EEXIST');
    expect(readFileSync(file, 'utf8')).toBe('earlier run\n');

    const dangling = join(dir, 'dangling.jsonl');
    symlinkSync(join(outside, 'created-through-link'), dangling);
    expect(code(() => createPrivateFile(dangling))).toBe('ELOOP');
    expect(readdirSync(outside)).toEqual([]);

    const theirs = join(outside, 'theirs');
    writeFileSync(theirs, 'x');
    const linked = join(dir, 'linked.jsonl');
    symlinkSync(theirs, linked);
    expect(code(() => createPrivateFile(linked))).toBe('ELOOP');
    expect(readFileSync(theirs, 'utf8')).toBe('x');
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
  });
});

describe('openNoFollow', () => {
  it('opens a regular file, and refuses a link to one (ELOOP)', () => {
    const file = join(dir, 'res.jsonl');
    writeFileSync(file, 'x\n');
    closeSync(openNoFollow(file, constants.O_RDONLY));
    const link = join(dir, 'link.jsonl');
    symlinkSync(file, link);
    expect(code(() => openNoFollow(link, constants.O_WRONLY | constants.O_APPEND))).toBe('ELOOP');
    expect(readFileSync(file, 'utf8')).toBe('x\n');
  });
});

describe('fileProblem', () => {
  it('says what a link and an existing file are, and the errno code otherwise', () => {
    expect(fileProblem({ code: 'ELOOP' })).toBe('it is a symbolic link, and pgw never writes through one: name the file itself');
    expect(fileProblem({ code: 'EEXIST' })).toBe('it already exists');
    expect(fileProblem({ code: 'ENOSPC' })).toBe('ENOSPC');
  });
});
