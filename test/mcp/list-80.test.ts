// `pgw mcp --list` read by a person at an 80-column terminal (tmux, the built binary): every tool
// name and toolset whole, nothing wider than the screen, and the hidden columns named.
import { afterAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/run.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';
import { ALL_TOOLS } from '../../src/mcp/catalog.js';

const tmp = tempConfigDir();
afterAll(() => tmp.cleanup());

describe.skipIf(!hasTmux)('pgw mcp --toolsets all --list at 80 columns', () => {
  it('fits, keeps each tool and toolset whole, and says what it hid', async () => {
    const t = startPgw(['mcp', '--toolsets', 'all', '--list'], { env: { PGW_CONFIG_DIR: tmp.dir }, columns: 80, rows: 80 });
    try {
      expect(await t.exited()).toBe(0);
      const screen = t.screen();
      for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
      for (const tool of ALL_TOOLS) expect(screen).toMatch(new RegExp(`│ ${tool.name} +│ ${tool.toolset} +│ (read|write) `));
      expect(screen).toMatch(/note: \d columns? hidden \(.*command\): --wide shows/);
    } finally {
      t.close();
    }
  });
});
