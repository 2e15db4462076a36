// What an agent pays before its first call, and what each result costs (issue 43 items 1 and 5),
// through the MCP SDK's client: the default list within 40 tools and 40,000 characters of
// tools/list (on the embedded sandbox, where the most is offered, and on production with
// --allow-production); no output schema, no long pattern; a result's data once as
// structuredContent and once as its JSON text after a one-line summary; the toolsets; the agent
// told what the default list leaves out; start-up refusals where the client shows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess, type McpSession } from '../helpers/mcp.js';
import { ALL_TOOLS, DEFAULT_LIST_BUDGET as BUDGET } from '../../src/mcp/catalog.js';

const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir };
let session: McpSession;

beforeAll(async () => {
  // A production profile for the listing: listing sends nothing, so its address needs no server.
  const added = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', 'http://127.0.0.1:9', '--client-id', 'cid_live', '--client-secret-stdin'], { env, input: 'sk_live_budget_0001\n' });
  expect(added.code, added.stderr).toBe(0);
  session = await mcpInProcess(['mcp'], { env });
}, 30_000);

afterAll(async () => {
  await session?.close();
  tmp.cleanup();
});

async function listed(argv: string[]) {
  const s = await mcpInProcess(argv, { env });
  try {
    const result = await s.client.listTools();
    return { tools: result.tools, characters: JSON.stringify(result).length, instructions: s.client.getInstructions() ?? '' };
  } finally {
    await s.close();
  }
}

/** Every value of `key` anywhere in a JSON Schema. */
function valuesOf(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => valuesOf(n, key, out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  }
  return out;
}

describe('the default list fits the budget', () => {
  it('on the embedded sandbox: at most 40 tools and 40,000 characters of tools/list', async () => {
    const result = await session.client.listTools();
    const characters = JSON.stringify(result).length;
    expect(result.tools.length, 'tools in the default list (catalog.ts: mark one `extra`)').toBeLessThanOrEqual(BUDGET.tools);
    expect(characters, 'characters of tools/list (catalog.ts: mark a tool `extra`, or shorten it)').toBeLessThanOrEqual(BUDGET.characters);
    // The measure is the list itself: a default list of a handful would be no list at all.
    expect(result.tools.length).toBeGreaterThan(20);
  });

  it('on production with --allow-production (each write two-step): within the budget too', async () => {
    const prod = await listed(['-p', 'live', 'mcp', '--allow-production']);
    expect(prod.tools.length).toBeLessThanOrEqual(BUDGET.tools);
    expect(prod.characters).toBeLessThanOrEqual(BUDGET.characters);
    expect(prod.tools.some((t) => Object.hasOwn(t.inputSchema.properties ?? {}, 'confirmation_token'))).toBe(true);
  });

  it('no output schema; no pattern longer than 32 characters or with a Unicode property escape', async () => {
    const all = await listed(['mcp', '--toolsets', 'all']);
    expect(all.tools.length).toBe(ALL_TOOLS.length);
    for (const t of all.tools) {
      expect(t.outputSchema, t.name).toBeUndefined();
      for (const p of valuesOf(t.inputSchema, 'pattern')) {
        expect(String(p).length, `${t.name}: ${String(p)}`).toBeLessThanOrEqual(32);
        expect(String(p), t.name).not.toContain('\\p{');
      }
    }
    // The email's and IPv6 address's long patterns were the ones an agent paid for.
    const order = all.tools.find((t) => t.name === 'order_create')!;
    expect(JSON.stringify(order.inputSchema)).not.toMatch(/\[0-9a-fA-F\]\{1,4\}/);
  });
});

describe('a result carries its data once', () => {
  it('a one-line summary, then the JSON of structuredContent', async () => {
    for (const [name, args] of [['payment_list', { status: 'captured' }], ['sandbox_clock_show', {}], ['sandbox_snapshot_list', {}]] as const) {
      const r = await session.client.callTool({ name, arguments: args });
      const content = r.content as { type: string; text: string }[];
      expect(content.map((c) => c.type), name).toEqual(['text', 'text']);
      expect(content[0]!.text, name).not.toContain('\n');
      expect(content[0]!.text.startsWith(`${name}:`), name).toBe(true);
      expect(content[1]!.text, name).toBe(JSON.stringify(r.structuredContent));
    }
  });

  it('events_get: the body as sent, once (no parsed copy beside it)', async () => {
    await callTool(session.client, 'sandbox_webhook_add', { url: 'http://127.0.0.1:9/hooks' });
    await callTool(session.client, 'sandbox_trigger', { event: 'PAYMENT_SUCCESSFUL' });
    const events = await callTool(session.client, 'events_list', { limit: 1 });
    const id = (events.data.items as { id: string }[])[0]!.id;
    const r = await session.client.callTool({ name: 'events_get', arguments: { event_id: id } });
    const data = r.structuredContent as Record<string, unknown>;
    const cli = await runCli(['events', 'get', id, '--json'], { env });
    const full = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(data.body).toBe(full.body);
    expect(data).not.toHaveProperty('payload');
    const { payload: _parsed, ...rest } = full;
    expect(data).toEqual(rest);
    const text = (r.content as { text: string }[]).map((c) => c.text).join('\n');
    const sequence = JSON.parse(full.body as string).sequence_number as string;
    // The body's sequence_number: in the body and the event's own field, in the JSON text only.
    expect(text.split(sequence).length - 1).toBe(2);
  });
});

describe('toolsets', () => {
  const names = async (toolsets: string) => (await listed(['mcp', '--toolsets', toolsets])).tools.map((t) => t.name).sort();
  const compliance = ['lrs_quote', 'order_documents', 'pan_verify', 'payment_verification', 'payment_verify', 'sandbox_vba_transfer', 'sandbox_verification', 'vba_create', 'vba_get', 'vba_list', 'vba_payments'];

  it('payments holds payment tools; compliance the VBA, PAN, LRS, document and verification ones', async () => {
    expect(await names('payments')).toEqual(['payment_get', 'payment_list', 'payment_trace']);
    expect(await names('compliance')).toEqual(compliance);
  });

  it('default names the default list; default,compliance adds the compliance tools', async () => {
    const defaults = (await session.client.listTools()).tools.map((t) => t.name).sort();
    expect(await names('default')).toEqual(defaults);
    expect(await names('default,compliance')).toEqual([...defaults, ...compliance].sort());
    for (const name of compliance) expect(defaults).not.toContain(name);
  });

  it('the default list tells the agent what else there is and how a person gets it', async () => {
    expect(session.client.getInstructions()).toContain('--toolsets all');
    expect((await listed(['mcp', '--toolsets', 'all'])).instructions).not.toContain('--toolsets all');
  });
});

describe('start-up', () => {
  it('--allow-production before mcp: accepted by the fast start and by commander (--list)', async () => {
    const fast = await listed(['-p', 'live', '--allow-production', 'mcp']);
    expect(fast.tools.some((t) => t.name === 'refund_create')).toBe(true);
    const tree = await runCli(['-p', 'live', '--allow-production', 'mcp', '--list', '--json'], { env });
    expect(tree.code, tree.stderr).toBe(0);
    expect((JSON.parse(tree.stdout) as { name: string; two_step: boolean }[]).find((t) => t.name === 'refund_create')).toMatchObject({ two_step: true });
  });

  it("a refusal to start is one line on stderr and the answer to the client's initialize (the built binary)", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/pgw.js', 'mcp', '--toolsets', 'payments,bogus'], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe', cwd: process.cwd() });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const client = new Client({ name: 'pgw-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow(/pgw mcp: error: --toolsets: unknown toolset "bogus"/);
    await client.close().catch(() => undefined);
    expect(stderr).toMatch(/^pgw mcp: error: --toolsets: unknown toolset "bogus": choose from .*\n$/);
  });
});
