// parity/gateway.json is the hand-written list of what the gateway documents (spec, beyond,
// vendor) and what the sandbox does with each item; `npm run parity` builds docs/parity.md from
// it. This test holds the list to its schema and to the sandbox's router: a route added to
// src/sandbox/routes.ts without an entry, or an entry claiming a route that does not exist, fails
// here before the report can say something untrue.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const LIST_FILE = new URL('parity/gateway.json', ROOT);
const ROUTES_FILE = new URL('src/sandbox/routes.ts', ROOT);

const OP_STATES = ['implemented', 'partial', 'not-implemented', 'refused'];
const EVENT_STATES = ['implemented', 'partial', 'not-implemented'];
const STATUS_STATES = ['implemented', 'not-implemented'];
const ERROR_STATES = ['produced', 'not-produced'];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', '*'];

type Entry = Record<string, unknown>;
interface GatewayList {
  $comment?: unknown;
  operations: Entry[];
  events: Entry[];
  statuses: { resource: unknown; field: unknown; values: Entry[] }[];
  errors: Entry[];
}

/** `METHOD /path/` of every `.add('METHOD', '/path/', …)` in routes.ts, `:x` written `{x}`. */
function sandboxRoutes(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\.add\(\s*'([A-Z]+)'\s*,\s*'([^']+)'/g)) {
    found.push(`${m[1]} ${m[2]!.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
  }
  return found;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isSources = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every(isText);

/** Every way the list breaks its schema or disagrees with the router; empty when it is sound. */
function listProblems(list: GatewayList, routes: string[]): string[] {
  const out: string[] = [];
  if (!isText(list.$comment)) out.push('$comment: missing');
  for (const key of ['operations', 'events', 'statuses', 'errors'] as const) {
    if (!Array.isArray(list[key]) || list[key].length === 0) out.push(`${key}: missing or empty`);
  }
  if (out.length) return out;

  // Operations
  const ids = new Set<string>();
  const opKeys = new Set<string>();
  for (const [i, o] of list.operations.entries()) {
    const at = `operations[${i}] ${String(o.id)}`;
    if (!isText(o.id)) out.push(`${at}: id missing`);
    else if (ids.has(o.id)) out.push(`${at}: id not unique`);
    else ids.add(o.id);
    if (!isText(o.resource)) out.push(`${at}: resource missing`);
    if (!METHODS.includes(o.method as string)) out.push(`${at}: method ${String(o.method)} not one of ${METHODS.join(', ')}`);
    if (!isText(o.path) || !o.path.startsWith('/') || !(o.path.endsWith('/') || o.path.endsWith('/**'))) out.push(`${at}: path must start with / and end with / (or /** for an area)`);
    else if (/:[A-Za-z_]/.test(o.path)) out.push(`${at}: path parameters are written {name}, not :name`);
    const key = `${String(o.method)} ${String(o.path)}`;
    if (opKeys.has(key)) out.push(`${at}: ${key} listed twice`);
    opKeys.add(key);
    if (!isSources(o.documented)) out.push(`${at}: documented must be a non-empty list of places`);
    if (!OP_STATES.includes(o.sandbox as string)) out.push(`${at}: sandbox ${String(o.sandbox)} not one of ${OP_STATES.join(', ')}`);
    if (o.sandbox !== 'implemented' && !isText(o.why)) out.push(`${at}: why is required when sandbox is ${String(o.sandbox)}`);
    if (!('cli' in o) || !(o.cli === null || (isText(o.cli) && o.cli.startsWith('pgw ')))) out.push(`${at}: cli must be "pgw …" or null`);
    if ('untested' in o && (!isText(o.untested) || o.sandbox !== 'implemented')) out.push(`${at}: untested needs a reason and an implemented entry`);
    const isSandboxPath = isText(o.path) && o.path.startsWith('/sandbox/');
    if (isSandboxPath !== (o.resource === 'sandbox')) out.push(`${at}: resource "sandbox" is for /sandbox/ paths, and only them`);
    if (o.resource === 'sandbox' && !(Array.isArray(o.documented) && o.documented.includes('docs/sandbox.md'))) out.push(`${at}: a sandbox helper is documented in docs/sandbox.md`);
    if ((o.sandbox === 'implemented' || o.sandbox === 'partial') && !routes.includes(key)) out.push(`${at}: marked ${String(o.sandbox)} but src/sandbox/routes.ts has no route ${key}`);
    if ((o.sandbox === 'not-implemented') && routes.includes(key)) out.push(`${at}: marked not-implemented but src/sandbox/routes.ts routes ${key}`);
  }
  for (const r of routes) if (!opKeys.has(r)) out.push(`route ${r} of src/sandbox/routes.ts is not in operations`);

  // Events
  const types = new Set<string>();
  for (const [i, e] of list.events.entries()) {
    const at = `events[${i}] ${String(e.type)}`;
    if (!isText(e.type) || !/^[A-Z][A-Z_]*$/.test(e.type)) out.push(`${at}: type must be UPPER_SNAKE`);
    else if (types.has(e.type)) out.push(`${at}: type not unique`);
    else types.add(e.type);
    if (!isSources(e.documented)) out.push(`${at}: documented must be a non-empty list of places`);
    if (!EVENT_STATES.includes(e.sandbox as string)) out.push(`${at}: sandbox ${String(e.sandbox)} not one of ${EVENT_STATES.join(', ')}`);
    if (e.sandbox !== 'implemented' && !isText(e.why)) out.push(`${at}: why is required when sandbox is ${String(e.sandbox)}`);
    if ('untested' in e && (!isText(e.untested) || e.sandbox !== 'implemented')) out.push(`${at}: untested needs a reason and an implemented entry`);
  }

  // Statuses
  const fields = new Set<string>();
  for (const [i, s] of list.statuses.entries()) {
    const at = `statuses[${i}] ${String(s.resource)}.${String(s.field)}`;
    if (!isText(s.resource) || !isText(s.field)) out.push(`${at}: resource and field are required`);
    const key = `${String(s.resource)}.${String(s.field)}`;
    if (fields.has(key)) out.push(`${at}: listed twice`);
    fields.add(key);
    if (!Array.isArray(s.values) || s.values.length === 0) {
      out.push(`${at}: values missing or empty`);
      continue;
    }
    const seen = new Set<string>();
    for (const v of s.values) {
      const vat = `${at} = ${String(v.value)}`;
      if (!isText(v.value)) out.push(`${vat}: value missing`);
      else if (seen.has(v.value)) out.push(`${vat}: value not unique`);
      else seen.add(v.value);
      if (!isSources(v.documented)) out.push(`${vat}: documented must be a non-empty list of places`);
      if (!STATUS_STATES.includes(v.sandbox as string)) out.push(`${vat}: sandbox ${String(v.sandbox)} not one of ${STATUS_STATES.join(', ')}`);
      if (v.sandbox !== 'implemented' && !isText(v.why)) out.push(`${vat}: why is required when sandbox is ${String(v.sandbox)}`);
      if ('untested' in v && (!isText(v.untested) || v.sandbox !== 'implemented')) out.push(`${vat}: untested needs a reason and an implemented entry`);
    }
  }

  // Errors: one entry per (code, HTTP status); integer codes are written as strings.
  const codes = new Set<string>();
  for (const [i, e] of list.errors.entries()) {
    const at = `errors[${i}] ${String(e.code)} ${String(e.http)}`;
    if (!isText(e.code)) out.push(`${at}: code must be a string (integer codes too)`);
    if (!(e.http === null || (Number.isInteger(e.http) && (e.http as number) >= 400 && (e.http as number) <= 599))) out.push(`${at}: http must be a 4xx/5xx status or null`);
    const key = `${String(e.code)} ${String(e.http)}`;
    if (codes.has(key)) out.push(`${at}: listed twice`);
    codes.add(key);
    if (!isSources(e.documented)) out.push(`${at}: documented must be a non-empty list of places`);
    if (!ERROR_STATES.includes(e.sandbox as string)) out.push(`${at}: sandbox ${String(e.sandbox)} not one of ${ERROR_STATES.join(', ')}`);
    if (e.sandbox !== 'produced' && !isText(e.why)) out.push(`${at}: why is required when sandbox is ${String(e.sandbox)}`);
    if ('untested' in e && (!isText(e.untested) || e.sandbox !== 'produced')) out.push(`${at}: untested needs a reason and a produced entry`);
  }
  return out;
}

const text = readFileSync(LIST_FILE, 'utf8');
const list = JSON.parse(text) as GatewayList;
const routes = sandboxRoutes(readFileSync(ROUTES_FILE, 'utf8'));
const copy = (): GatewayList => JSON.parse(text) as GatewayList;

describe('parity/gateway.json', () => {
  it('reads the router: every .add of routes.ts, production routes and helpers', () => {
    expect(routes).toContain('POST /pg/orders/');
    expect(routes).toContain('PATCH /pg/orders/{order_id}/');
    expect(routes).toContain('POST /sandbox/events/{event_id}/resend/');
    expect(routes.length).toBe((readFileSync(ROUTES_FILE, 'utf8').match(/\.add\(/g) ?? []).length);
  });

  it('keeps to its schema and matches the sandbox router', () => {
    expect(listProblems(list, routes)).toEqual([]);
  });

  it('is written as 2-space JSON with a final newline (the generator diffs it)', () => {
    expect(text).toBe(JSON.stringify(list, null, 2) + '\n');
  });

  it('lists the gaps as gaps: the documented areas the sandbox does not do', () => {
    const byId = new Map(list.operations.map((o) => [o.id, o]));
    for (const id of ['documents.lrs_upload', 'forms.all', 'tokens.create']) {
      expect(byId.get(id)?.sandbox, id).toBe('not-implemented');
    }
    const events = new Map(list.events.map((e) => [e.type, e.sandbox]));
    for (const t of ['DISPUTE_UPDATED', 'SUBSCRIPTION_STATUS']) {
      expect(events.get(t), t).toBe('not-implemented');
    }
  });

  // The checks above can fail: each mutation below must be caught.
  describe('catches a broken list', () => {
    it('a route of routes.ts with no entry', () => {
      const l = copy();
      l.operations = l.operations.filter((o) => o.id !== 'orders.create');
      expect(listProblems(l, routes)).toContain('route POST /pg/orders/ of src/sandbox/routes.ts is not in operations');
    });

    it('an implemented entry with no route', () => {
      const l = copy();
      const gap = l.operations.find((o) => o.id === 'documents.lrs_upload')!;
      gap.sandbox = 'implemented';
      expect(listProblems(l, routes)).toContain('operations[' + l.operations.indexOf(gap) + `] documents.lrs_upload: marked implemented but src/sandbox/routes.ts has no route ${gap.method} ${gap.path}`);
    });

    it('a duplicate id, a missing why, a :param path, an unknown state', () => {
      const l = copy();
      l.operations[1]!.id = l.operations[0]!.id;
      const partial = l.operations.find((o) => o.sandbox === 'partial')!;
      delete partial.why;
      l.operations[2]!.path = '/pg/orders/:order_id/';
      l.events[0]!.sandbox = 'done';
      l.statuses[0]!.values[0]!.sandbox = 'partial';
      delete (l.errors.find((e) => e.sandbox === 'not-produced') as Entry).why;
      const p = listProblems(l, routes).join('\n');
      expect(p).toMatch(/id not unique/);
      expect(p).toMatch(/why is required when sandbox is partial/);
      expect(p).toMatch(/written \{name\}, not :name/);
      expect(p).toMatch(/events\[0\] .*: sandbox done not one of/);
      expect(p).toMatch(/statuses\[0\] .*: sandbox partial not one of/);
      expect(p).toMatch(/errors\[.*why is required when sandbox is not-produced/);
    });

    it('an integer error code, a missing key', () => {
      const l = copy();
      (l.errors.find((e) => e.code === '40350') as Entry).code = 40350;
      delete l.operations[0]!.cli;
      const p = listProblems(l, routes).join('\n');
      expect(p).toMatch(/code must be a string/);
      expect(p).toMatch(/cli must be/);
    });
  });
});
