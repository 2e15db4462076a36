// Standard output without process.stdout (src/output/fd-output.ts): whole, in order, and quiet
// when the reader has gone.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fdOutput, isPlainFd } from '../../src/output/fd-output.js';
import { BIN, ROOT } from '../helpers/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-fd-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fdOutput', () => {
  it('writes every piece to a file, whole and in order, multi-byte text included', () => {
    const path = join(dir, 'out.txt');
    const fd = openSync(path, 'w');
    try {
      const sink = fdOutput(fd)!;
      const pieces = ['{"name":"अमित",', `"big":"${'x'.repeat(200_000)}",`, '"end":"é"}\n'];
      for (const piece of pieces) expect(sink.write(piece)).toBe(true);
      expect(sink.isTTY).toBeUndefined();
      expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    } finally {
      closeSync(fd);
    }
  });

  it('is for files, pipes, sockets and /dev/null: not another character device (it may be a terminal), not a closed fd', () => {
    const file = openSync(join(dir, 'plain.txt'), 'w');
    const devNull = openSync('/dev/null', 'w');
    const devZero = openSync('/dev/zero', 'w'); // a character device that is not the null device
    try {
      expect(isPlainFd(file)).toBe(true);
      expect(isPlainFd(devNull)).toBe(true);
      expect(fdOutput(devNull)!.write('dropped')).toBe(true);
      expect(isPlainFd(devZero)).toBe(false);
      expect(fdOutput(devZero)).toBeUndefined();
    } finally {
      closeSync(file);
      closeSync(devNull);
      closeSync(devZero);
    }
    expect(fdOutput(devNull)).toBeUndefined();
  });
});

describe('a reader that goes away (pgw ... | head)', () => {
  it('ends the output quietly: exit 0, no stack trace, no EPIPE', async () => {
    const config = mkdtempSync(join(dir, 'cfg-'));
    const child = spawn(process.execPath, [BIN, 'sandbox', 'seed', '--payments', '20', '--json'], {
      cwd: ROOT,
      env: { ...process.env, PGW_CONFIG_DIR: config, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.destroy(); // the reader is gone before pgw writes: every write meets EPIPE
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
