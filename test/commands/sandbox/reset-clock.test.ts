// sandbox reset and the clock (issue 41 item 5): a reset keeps the sandbox clock and says what time
// it shows; --clock resets it too (over HTTP for the account in use; with --all, every clock).
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run.js';

const tmp = tempConfigDir();
afterAll(() => tmp.cleanup());
const pgw = (argv: string[]) => runCli(argv, { env: { PGW_CONFIG_DIR: tmp.dir, NO_COLOR: '1' } });

describe('sandbox reset and the clock', () => {
  it('keeps the clock and says so, with its time; --clock resets it', async () => {
    expect((await pgw(['sandbox', 'clock', 'advance', '3d'])).code).toBe(0);
    const kept = await pgw(['sandbox', 'reset', '--yes', '-o', 'table']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(/its clock is kept: \S+, \+3d 00:00:00 \(sandbox ahead of the machine\) \(pgw sandbox reset --clock resets it too\)/);
    const json = JSON.parse((await pgw(['sandbox', 'reset', '--yes', '--json'])).stdout);
    expect(json).toMatchObject({ reset: true, clock_reset: false, clock: { offset_seconds: 259200 } });

    const reset = await pgw(['sandbox', 'reset', '--yes', '--clock', '-o', 'table']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain("its clock was reset to the machine's time");
    const shown = JSON.parse((await pgw(['sandbox', 'clock', '--json'])).stdout);
    expect(shown.offset_seconds).toBe(0);
  });

  it('--all --clock resets every clock of the file; --dry-run --clock sends nothing', async () => {
    await pgw(['sandbox', 'clock', 'advance', '1d']);
    const dry = await pgw(['sandbox', 'reset', '--clock', '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('POST http://embedded-sandbox.invalid/sandbox/clock/');
    expect(JSON.parse((await pgw(['sandbox', 'clock', '--json'])).stdout).offset_seconds).toBe(86400);
    const all = await pgw(['sandbox', 'reset', '--all', '--clock', '--yes', '-o', 'table']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toContain("every clock was reset to the machine's time");
    expect(JSON.parse((await pgw(['sandbox', 'clock', '--json'])).stdout).offset_seconds).toBe(0);
  });
});
