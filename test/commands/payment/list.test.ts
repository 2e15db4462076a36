// pgw payment list in a terminal: the table fits 80 columns however long the buyer's name and
// reference, payment_id and status always shown; and the query carries every filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run.js';

let tmp: ReturnType<typeof tempConfigDir>;
beforeAll(() => {
  tmp = tempConfigDir();
});
afterAll(() => tmp.cleanup());

const env = () => ({ PGW_CONFIG_DIR: tmp.dir, NO_COLOR: '1' });

describe('pgw payment list', () => {
  it('fits 80 columns on a terminal, with payment_id and status whole', async () => {
    const seeded = await runCli(['sandbox', 'seed', '--payments', '3', '--json'], { env: env() });
    expect(seeded.code, seeded.stderr).toBe(0);
    const r = await runCli(['payment', 'list', '--all'], { env: env(), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    for (const id of JSON.parse(seeded.stdout) as string[]) expect(r.stdout).toContain(id);
    expect(r.stdout).toMatch(/captured/);
  });

  it('bad filters are exit 2 before anything is sent', async () => {
    for (const argv of [['--mop', 'cash'], ['--status', 'x'], ['--from', '2026-01-02', '--to', '2026-01-01'], ['--page-size', '1001'], ['--reference-id', ' ']]) {
      const r = await runCli(['payment', 'list', ...argv, '--base-url', 'http://127.0.0.1:9'], { env: env() });
      expect(r.code, argv.join(' ')).toBe(2);
    }
  });
});
