// docs/mcp.md: its tool list is what `pgw mcp --toolsets all --list --json` says (regenerate with npm run
// mcp-docs), and each set-up snippet under "Connect an agent in one step" starts a server that an
// MCP client can initialize and list, with the snippet's own command and arguments.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractBlocks } from '../docs/blocks.js';
import { tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess, mcpProcess } from '../helpers/mcp.js';
// @ts-expect-error: a plain .mjs module shared with scripts/mcp-docs.mjs
import { renderToolList, START, END } from '../../scripts/mcp-docs/render.mjs';

const ROOT = process.cwd();
const DOC = 'docs/mcp.md';
const source = readFileSync(join(ROOT, DOC), 'utf8');
const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir, PATH: process.env.PATH ?? '' };
afterAll(() => tmp.cleanup());

describe(DOC, () => {
  it('lists the tools pgw mcp --toolsets all --list --json offers on the embedded profile (npm run mcp-docs)', () => {
    const listed = JSON.parse(execFileSync(process.execPath, ['bin/pgw.js', 'mcp', '--toolsets', 'all', '--list', '--json'], { env }).toString('utf8'));
    const block = source.slice(source.indexOf(START), source.indexOf(END) + END.length);
    expect(block, 'docs/mcp.md is stale: npm run mcp-docs').toBe(renderToolList(listed));
    expect(listed.length).toBeGreaterThan(30);
  });

  const setups = extractBlocks(DOC, source).filter((b) => b.heading === 'Connect an agent in one step');
  /** The snippet's command line with `npx pgw` / `pgw` as this checkout's bin/pgw.js. */
  const commands = setups.map((b) => {
    if (b.lang === 'sh') return b.text.trim().split(' -- ')[1]!.split(/\s+/);
    const config = JSON.parse(b.text) as { mcpServers?: Record<string, { command: string; args: string[] }>; servers?: Record<string, { command: string; args: string[] }> };
    const server = (config.mcpServers ?? config.servers)!.pgw!;
    return [server.command, ...server.args];
  });

  it('has the three set-ups: claude mcp add, an mcpServers file, VS Code', () => {
    expect(setups.map((b) => b.lang)).toEqual(['sh', 'json', 'json']);
    for (const argv of commands) expect(argv).toEqual(['npx', 'pgw', 'mcp']);
  });

  it.each(commands.map((argv, i) => [i, argv] as const))('set-up %i starts a server an agent can initialize and list', async (_i, argv) => {
    const args = argv.slice(argv[0] === 'npx' ? 2 : 1); // `npx pgw` / `pgw` → bin/pgw.js
    const session = await mcpProcess(args, env);
    try {
      expect(session.client.getServerVersion()?.name).toBe('pgw');
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(30);
    } finally {
      await session.close();
    }
  });

  const [errorBlock] = extractBlocks(DOC, source).filter((b) => b.heading === 'What a tool returns' && b.lang === 'text');
  it("What a tool returns: the argument error shown is order_create's, line for line", async () => {
    const session = await mcpInProcess(['mcp'], { env });
    try {
      const call = {
        amount: '1500.00',
        amont: 1500,
        return_url: 'https://example.com/return',
        buyer: { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210', address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka' } },
        product: { name: 'Brass lamp', type_of_goods: 'physical_goods' },
        invoice: { number: 'INV-2026-0042' },
      };
      const r = await callTool(session.client, 'order_create', call);
      const shown = errorBlock!.text.trim().split('\n').map((l) => l.trim());
      const said = r.text.split('\n').map((l) => l.trim());
      expect(said.slice(0, -1)).toEqual(shown.slice(0, -1));
      expect(said.at(-1)!.startsWith(shown.at(-1)!.replace(/…$/, ''))).toBe(true);
    } finally {
      await session.close();
    }
  });
});
