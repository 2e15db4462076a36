// Right on the first call (issue 43 items 2, 4 and 5), through the MCP SDK's client on a fresh
// embedded sandbox: from each create tool's input schema alone, a client builds the smallest
// call (the required properties, nested ones included, valued by the schema's examples, enums and
// formats) and it succeeds the first time; a wrong call hears of every problem at once, by the
// paths it sent, in a tool call's words; a refund repeated within 10 minutes is refused unless
// meant (command and tool); the webhook tools never show the Encryption Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpInProcess, type McpSession } from '../helpers/mcp.js';
import { answersOn } from '../../src/commands/pages-hint.js';

const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir };
let mcp: McpSession;
let psp: McpSession;
let tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
const ids: Record<string, string> = {};

beforeAll(async () => {
  mcp = await mcpInProcess(['mcp', '--toolsets', 'all'], { env });
  psp = await mcpInProcess(['-p', 'local-psp', 'mcp', '--toolsets', 'all'], { env });
  tools = (await mcp.client.listTools()).tools as typeof tools;
  const seeded = JSON.parse((await runCli(['sandbox', 'seed', '--payments', '3', '--json'], { env })).stdout) as string[];
  ids.payment_id = seeded[0]!; // the smallest refund_create refunds it whole
  ids.second_payment = seeded[1]!;
  ids.third_payment = seeded[2]!;
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await psp?.close();
  tmp.cleanup();
});

type Schema = Record<string, unknown>;
const FORMATS: Record<string, unknown> = { email: 'asha@example.com', uri: 'https://example.com/return' };

/** A value for a schema, from what the schema itself says; undefined when it says too little. */
function valueOf(schema: Schema, name: string): unknown {
  if (name in ids) return ids[name];
  if (Array.isArray(schema.examples)) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return valueOf((schema.anyOf as Schema[]).find((s) => s.type !== 'null')!, name);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.includes('object')) return smallest(schema);
  if (types.includes('number') || types.includes('integer')) return (schema.minimum as number | undefined) ?? 1;
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return Array.from({ length: (schema.minItems as number | undefined) ?? 0 }, () => valueOf(schema.items as Schema, name));
  if (typeof schema.format === 'string') return FORMATS[schema.format];
  const text = 'x'.repeat(Math.max(1, (schema.minLength as number | undefined) ?? 1));
  if (schema.pattern === undefined) return text;
  // A client tries plain values against a pattern; one no plain value meets needs an example.
  return [text, 'X', '1', 'x1'].find((v) => new RegExp(schema.pattern as string, 'u').test(v));
}

/** The smallest call: every required property, at every level, and nothing else. */
function smallest(schema: Schema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, valueOf(properties[key]!, key)]));
}

/** Paths of the call the schema said too little to value. */
function unformed(value: unknown, path = ''): string[] {
  if (value === undefined) return [path];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => unformed(v, path ? `${path}.${k}` : k));
}

/** The JSON Schema node at a dotted path, and whether its parent lists it as required. */
function requiredAt(schema: Schema, path: string): boolean {
  const keys = path.split('.');
  let node: Schema | undefined = schema;
  for (const [i, key] of keys.entries()) {
    const options: (Schema | undefined)[] = [node, ...((node?.anyOf as Schema[]) ?? [])];
    const object = options.find((n) => n?.type === 'object');
    if (i === keys.length - 1) return ((object?.required ?? []) as string[]).includes(key);
    node = (object?.properties as Record<string, Schema> | undefined)?.[key];
  }
  return false;
}

const NOT_FOR_AN_AGENT = /(^|[\s(`'"])--[a-z]|terminal|print-template/;

describe('the smallest valid call, from the schema alone, works the first time', () => {
  const CREATE = ['order_create', 'link_create', 'refund_create', 'vba_create', 'merchant_create', 'sandbox_subscription_create', 'sandbox_webhook_add'];

  it.each(CREATE)('%s', async (name) => {
    const tool = tools.find((t) => t.name === name)!;
    expect(tool, name).toBeDefined();
    const args = smallest(tool.inputSchema);
    expect(unformed(args), `${name}: the schema says too little to form these`).toEqual([]);
    // A sub-merchant is a PSP's: on the PSP profile of the embedded sandbox.
    const r = await callTool((name === 'merchant_create' ? psp : mcp).client, name, args);
    expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
  });

  it("order_create's smallest call names every nested requirement in its schema", async () => {
    const order = smallest(tools.find((t) => t.name === 'order_create')!.inputSchema);
    expect(Object.keys(order).sort()).toEqual(['amount', 'buyer', 'invoice', 'product', 'return_url']);
    expect(Object.keys((order.buyer as { address: object }).address).sort()).toEqual(['city', 'line_1', 'postal_code', 'state']);
  });
});

describe('a wrong call hears of every problem at once, by the paths it sent', () => {
  it('order_create with nothing: each missing field by its path, nested ones included; no flag, no terminal', async () => {
    const r = await callTool(mcp.client, 'order_create', { product: { type_of_goods: 'physical_goods' }, amont: 10 });
    expect(r.isError).toBe(true);
    const paths = (r.data.error as { problems: { path: string; message: string }[] }).problems.map((p) => p.path);
    for (const path of ['amount', 'buyer.name', 'buyer.address.line_1', 'buyer.address.postal_code', 'product.name', 'product.hs_code', 'return_url', 'invoice.number', 'amont']) expect(paths).toContain(path);
    expect(r.text).toContain('product.hs_code: required when type_of_goods is physical_goods');
    expect(r.text).toContain('amont: unknown key');
    expect(r.text).not.toMatch(NOT_FOR_AN_AGENT);
    // The rule the schema cannot state is a sentence of the description.
    expect(tools.find((t) => t.name === 'order_create')!.description).toMatch(/hs_code is required when type_of_goods is physical_goods/);
  });

  it('every tool: what {} lacks is marked required in its schema, and its error speaks of arguments', async () => {
    for (const tool of tools.filter((t) => ((t.inputSchema.required ?? []) as string[]).length > 0)) {
      const r = await callTool(mcp.client, tool.name, {});
      expect(r.isError, tool.name).toBe(true);
      for (const p of (r.data.error as { problems?: { path: string; message: string }[] }).problems ?? []) {
        if (p.message === 'required') expect(requiredAt(tool.inputSchema, p.path), `${tool.name}: ${p.path}`).toBe(true);
      }
      expect(r.text, tool.name).not.toMatch(NOT_FOR_AN_AGENT);
    }
  });

  it("the runners' own refusals, in a tool call's words", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['order_get', { order_id: 'INV-7781' }, /payment_list reference_id INV-7781/],
      ['link_extend', { link_id: 'PR0000000001', expires_in: 'soon' }, /expires_in/],
      ['payment_verify', { payment_id: ids.payment_id!, documents: { invoice: 'no-such-file.pdf' } }, /documents\.invoice/],
      ['sandbox_fault_add', { route: 'POST /pg/orders/' }, /give exactly one of status/],
    ];
    for (const [name, args, said] of cases) {
      const r = await callTool(mcp.client, name, args);
      expect(r.isError, name).toBe(true);
      expect(r.text, name).toMatch(said);
      expect(r.text, name).not.toMatch(NOT_FOR_AN_AGENT);
    }
  });
});

describe('a refund repeated within 10 minutes (the gateway has no idempotency key)', () => {
  it('the command refuses it naming the first (exit 6, nothing sent); --again, another amount or 10 minutes later pass', async () => {
    const payment = ids.second_payment!;
    const first = await runCli(['refund', 'create', payment, '--amount', '100', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const refundId = JSON.parse(first.stdout).refund_id as string;
    const again = await runCli(['refund', 'create', payment, '--amount', '100.00', '--json'], { env });
    expect(again.code).toBe(6);
    const error = JSON.parse(again.stderr).error as { code: string; message: string };
    expect(error.code).toBe('REPEAT_REFUND');
    expect(error.message).toContain(refundId);
    const count = async () => (JSON.parse((await runCli(['refund', 'list', '--payment-id', payment, '--json'], { env })).stdout) as unknown[]).length;
    expect(await count()).toBe(1);
    expect((await runCli(['refund', 'create', payment, '--amount', '50', '--json'], { env })).code).toBe(0);
    expect((await runCli(['refund', 'create', payment, '--amount', '100', '--again', '--json'], { env })).code).toBe(0);
    expect(await count()).toBe(3);
    // On the sandbox's own clock: 11 minutes later, the same refund is no repeat.
    expect((await runCli(['sandbox', 'clock', 'advance', '11m'], { env })).code).toBe(0);
    expect((await runCli(['refund', 'create', payment, '--amount', '50', '--json'], { env })).code).toBe(0);
    const help = await runCli(['refund', 'create', '--help'], { env });
    expect(help.stdout).toMatch(/10 minutes/);
    expect(help.stdout).toContain('--again');
  });

  it('the tool refuses it with the hint again: true, and sends it with again: true', async () => {
    const payment = ids.third_payment!;
    const first = await callTool(mcp.client, 'refund_create', { payment_id: payment, amount: 25 });
    expect(first.isError, first.text).toBe(false);
    const repeat = await callTool(mcp.client, 'refund_create', { payment_id: payment, amount: '25.00' });
    expect(repeat.isError).toBe(true);
    expect(repeat.data.error).toMatchObject({ code: 'REPEAT_REFUND', exit_code: 6 });
    expect(repeat.text).toContain(first.data.refund_id as string);
    expect(repeat.text).toContain('again: true');
    expect(repeat.text).not.toMatch(NOT_FOR_AN_AGENT);
    const meant = await callTool(mcp.client, 'refund_create', { payment_id: payment, amount: 25, again: true });
    expect(meant.isError, meant.text).toBe(false);
    expect(meant.data.refund_id).not.toBe(first.data.refund_id);
  });
});

describe('fit to the work', () => {
  it('sandbox_webhook_add / _list / _remove: the address registered and removed, never the Encryption Key', async () => {
    const key = (JSON.parse((await runCli(['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/person', '--json'], { env })).stdout) as { encryption_key: string }).encryption_key;
    expect(key).toMatch(/^sbx_ek_/);
    const added = await callTool(mcp.client, 'sandbox_webhook_add', { url: 'http://127.0.0.1:9/agent' });
    expect(added.isError, added.text).toBe(false);
    expect(added.data).not.toHaveProperty('encryption_key');
    expect(added.text).toContain('pgw listen --print-key');
    const listed = await callTool(mcp.client, 'sandbox_webhook_list', {});
    expect((listed.data.items as { url: string }[]).map((h) => h.url)).toContain('http://127.0.0.1:9/agent');
    const removed = await callTool(mcp.client, 'sandbox_webhook_remove', { webhook_id: added.data.id });
    expect(removed.isError, removed.text).toBe(false);
    const after = await callTool(mcp.client, 'sandbox_webhook_list', {});
    expect((after.data.items as { url: string }[]).map((h) => h.url)).not.toContain('http://127.0.0.1:9/agent');
    for (const r of [added, listed, removed, after]) expect(`${r.text}${JSON.stringify(r.data)}`).not.toContain(key);
  });

  it("order_create's checkout URL says the page needs pgw sandbox serve; the generated reference is said", async () => {
    const order = smallest(tools.find((t) => t.name === 'order_create')!.inputSchema);
    const r = await callTool(mcp.client, 'order_create', order);
    expect(r.isError, r.text).toBe(false);
    expect(r.data.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    const port = Number(new URL(r.data.checkout_url as string).port);
    // Where something already answers on that port (a serve of another run), the address is live.
    if (await answersOn(port)) expect(r.data).not.toHaveProperty('checkout_url_note');
    else expect(r.data.checkout_url_note).toContain('pgw sandbox serve');
    expect(r.text).toMatch(/reference_id [a-z0-9]{13} \(generated\)/);
  });
});
