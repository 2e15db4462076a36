// Every tool's annotations are what it does: a tool that claims readOnlyHint sends no POST, PATCH,
// PUT or DELETE. Each read tool runs against a gateway on 127.0.0.1 (a sandbox profile, so every
// tool is offered) that logs every request and answers each with an empty success.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess, type McpSession } from '../helpers/mcp.js';
import { MCP_SAMPLES } from '../helpers/mcp-samples.js';
import { ALL_TOOLS } from '../../src/mcp/catalog.js';

const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir };
const seen: string[] = [];
let server: Server;
let session: McpSession;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(req.method ?? 'GET');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', data: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const added = await runCli(['profile', 'add', 'logged', '--env', 'sandbox', '--base-url', url, '--client-id', 'cid', '--client-secret-stdin'], { env, input: 'sk_test_annotations\n' });
  expect(added.code, added.stderr).toBe(0);
  session = await mcpInProcess(['-p', 'logged', 'mcp', '--toolsets', 'all'], { env });
});

afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

describe('annotations', () => {
  it('every tool is offered on a pgw sandbox, with the four hints and a title, and has sample arguments', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
    for (const t of tools) {
      expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
      expect(MCP_SAMPLES[t.name], `${t.name} has no sample arguments (test/helpers/mcp-samples.ts)`).toBeDefined();
    }
  });

  it('a tool that claims readOnlyHint sends nothing but GET; the writes do send a change', async () => {
    const { tools } = await session.client.listTools();
    const readOnlyWrites: string[] = [];
    const silentWrites: string[] = [];
    for (const t of tools) {
      const before = seen.length;
      const r = await callTool(session.client, t.name, MCP_SAMPLES[t.name]);
      const methods = seen.slice(before);
      expect(r.text, t.name).not.toMatch(/^error: invalid arguments/); // the sample passes the schema
      const changes = methods.filter((m) => m !== 'GET');
      if (t.annotations?.readOnlyHint && changes.length > 0) readOnlyWrites.push(`${t.name}: ${changes.join(',')}`);
      if (!t.annotations?.readOnlyHint && changes.length === 0 && !r.isError) silentWrites.push(t.name);
    }
    expect(readOnlyWrites, 'tools annotated read-only that sent a change').toEqual([]);
    expect(silentWrites, 'write tools that succeeded without sending a change').toEqual([]);
  });

  it('settle_calc sends nothing at all and says it is closed-world on any profile', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.find((t) => t.name === 'settle_calc')?.annotations?.openWorldHint).toBe(false);
    const before = seen.length;
    const r = await callTool(session.client, 'settle_calc', MCP_SAMPLES.settle_calc);
    expect(r.isError, r.text).toBe(false);
    expect(seen.length).toBe(before);
  });
});
