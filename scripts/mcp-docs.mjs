// npm run mcp-docs: writes docs/mcp.md's tool list from the built pgw (`pgw mcp --toolsets all
// --list --json` on a fresh embedded profile, where every tool is offered). test/mcp/docs.test.ts checks it in CI.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withToolList } from './mcp-docs/render.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = mkdtempSync(join(tmpdir(), 'pgw-mcp-docs-'));
try {
  const out = execFileSync(process.execPath, [join(root, 'bin/pgw.js'), 'mcp', '--toolsets', 'all', '--list', '--json'], { env: { PATH: process.env.PATH, PGW_CONFIG_DIR: config } });
  const file = join(root, 'docs/mcp.md');
  writeFileSync(file, withToolList(readFileSync(file, 'utf8'), JSON.parse(out.toString('utf8'))));
  console.log('docs/mcp.md: tool list written');
} finally {
  rmSync(config, { recursive: true, force: true });
}
