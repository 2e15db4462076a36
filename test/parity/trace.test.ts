// The parity trace (src/sandbox/parity-trace.ts) through the binary: off, nothing is written; on,
// each answered request is one line naming the operation, its answer, the events it caused and the
// test file; and the report's check (scripts/parity.mjs --check) fails on a stale report and on a
// claim no test backs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnPgw } from '../helpers/spawn.js';

let dir: string;
let trace: string;
const lines = (): Record<string, unknown>[] => (existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-parity-'));
  trace = join(dir, 'trace.jsonl');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the trace', () => {
  it('writes nothing when PGW_PARITY_TRACE is not set', async () => {
    const r = await spawnPgw(['order', 'get', 'OD0000000001', '--json'], { env: { PGW_CONFIG_DIR: join(dir, 'off'), PGW_PARITY_TRACE: undefined } });
    expect(r.code).toBe(5);
    expect(lines()).toEqual([]);
  });

  it('writes a line per request: operation, status, error code, events, statuses, test file', async () => {
    const env = { PGW_CONFIG_DIR: join(dir, 'on'), PGW_PARITY_TRACE: trace, PGW_PARITY_TEST: 'test/parity/example.test.ts' };
    const missing = await spawnPgw(['order', 'get', 'OD0000000001', '--json'], { env });
    expect(missing.code).toBe(5);
    const template = await spawnPgw(['order', 'create', '--print-template'], { env });
    writeFileSync(join(dir, 'order.json'), template.stdout);
    const created = await spawnPgw(['order', 'create', '--file', join(dir, 'order.json'), '--reference-id', 'PARITY-1', '--query', 'order_id'], { env });
    expect(created.stderr).toBe('');
    const paid = await spawnPgw(['sandbox', 'pay', created.stdout.trim(), '--json'], { env });
    expect(paid.code).toBe(0);
    const got = lines();
    expect(got[0]).toEqual({ test: 'test/parity/example.test.ts', method: 'GET', route: '/pg/orders/:order_id/', status: 404, code: 'ERR_ORDER_001' });
    expect(got).toContainEqual(expect.objectContaining({ method: 'POST', route: '/pg/orders/', status: 201 }));
    const pay = got.find((l) => l.route === '/sandbox/orders/:order_id/pay/');
    expect(pay).toMatchObject({ status: 200, events: ['PAYMENT_SUCCESSFUL'] });
    expect(pay!.statuses).toEqual(expect.arrayContaining(['status=captured', 'extended_status=SUCCESS']));
  });
});

describe('the check', () => {
  // A copy of the generator and a small list in a directory of its own: the committed report is
  // left alone.
  let work: string;
  const list = {
    operations: [{ id: 'orders.create', resource: 'orders', method: 'POST', path: '/pg/orders/', documented: ['spec 4.1'], sandbox: 'implemented', cli: 'pgw order create' }],
    events: [{ type: 'PAYMENT_SUCCESSFUL', documented: ['spec 6'], sandbox: 'implemented' }],
    statuses: [],
    errors: [{ code: 'ERR_ORDER_002', http: 400, documented: ['vendor N2'], sandbox: 'produced' }],
  };
  const testFile = 'test/parity/example.test.ts';
  const traceLines = [
    { test: testFile, method: 'POST', route: '/pg/orders/', status: 400, code: 'ERR_ORDER_002' },
    { test: testFile, method: 'POST', route: '/pg/orders/', status: 201, events: ['PAYMENT_SUCCESSFUL'] },
  ];
  const parity = (...args: string[]) => spawnSync(process.execPath, ['scripts/parity.mjs', ...args], { cwd: work, encoding: 'utf8' });
  const writeTrace = (rows: object[]) => writeFileSync(join(work, '.parity/trace.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'pgw-parity-check-'));
    for (const d of ['scripts', 'parity', '.parity', 'docs', 'src/commands/sandbox', 'test/parity']) mkdirSync(join(work, d), { recursive: true });
    cpSync(join(ROOT, 'scripts/parity.mjs'), join(work, 'scripts/parity.mjs'));
    cpSync(join(ROOT, 'scripts/parity'), join(work, 'scripts/parity'), { recursive: true });
    writeFileSync(join(work, 'parity/gateway.json'), JSON.stringify(list));
    writeFileSync(join(work, testFile), "it('is an example', () => {});\n");
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes once the report is generated from the same list and trace', () => {
    writeTrace(traceLines);
    expect(parity().status).toBe(0);
    const checked = parity('--check');
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    expect(readFileSync(join(work, 'docs/parity.md'), 'utf8')).toContain('| `POST /pg/orders/` | spec 4.1 | implemented | `pgw order create` | 1: `parity/example.test.ts` | 201, 400, ERR_ORDER_002 |');
  });

  it('fails when the committed report is stale', () => {
    writeTrace(traceLines);
    parity();
    const md = join(work, 'docs/parity.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace('implemented', 'implemented by hand'));
    const checked = parity('--check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toMatch(/docs\/parity\.md is not what the generator gives from this run: run `npm run parity`/);
  });

  it('fails when an implemented operation, event or produced code has no test, unless the list says why', () => {
    writeTrace([{ test: testFile, method: 'GET', route: '/pg/payments/', status: 200 }]);
    parity();
    const checked = parity('--check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain('operation POST /pg/orders/ (orders.create) is marked implemented but no test exercises it');
    expect(checked.stderr).toContain('event PAYMENT_SUCCESSFUL is marked implemented but no test causes it');
    expect(checked.stderr).toContain('error code ERR_ORDER_002 (HTTP 400) is marked produced but no test produces it');
    const excused = {
      ...list,
      operations: [{ ...list.operations[0], untested: 'reached only by a browser test' }],
      events: [{ ...list.events[0], untested: 'x' }],
      errors: [{ ...list.errors[0], untested: 'y' }],
    };
    writeFileSync(join(work, 'parity/gateway.json'), JSON.stringify(excused));
    parity();
    expect(parity('--check').status).toBe(0);
    writeFileSync(join(work, 'parity/gateway.json'), JSON.stringify(list));
  });

  it('counts a status value only under its field, its parent and its resource', () => {
    const scoped = {
      ...list,
      operations: [...list.operations, { id: 'orders.get', resource: 'orders', method: 'GET', path: '/pg/orders/{order_id}/', documented: ['beyond 1'], sandbox: 'implemented' }],
      statuses: [
        { resource: 'order', field: 'status', values: [{ value: 'failed', documented: ['x'], sandbox: 'implemented' }] },
        { resource: 'payment', field: 'status', values: [{ value: 'failed', documented: ['x'], sandbox: 'implemented' }] },
        { resource: 'link', field: 'settlement.status', values: [{ value: 'pending', documented: ['x'], sandbox: 'implemented' }] },
      ],
    };
    writeFileSync(join(work, 'parity/gateway.json'), JSON.stringify(scoped));
    // An order's failed status and its payment's settlement pending, in an order's details.
    writeTrace([...traceLines, { test: testFile, method: 'GET', route: '/pg/orders/:order_id/', status: 200, statuses: ['status=failed', 'settlement.status=pending'] }]);
    parity();
    const report = JSON.parse(readFileSync(join(work, 'docs/parity.json'), 'utf8')) as { statuses: { resource: string; values: { tests: string[] }[] }[] };
    const seen = Object.fromEntries(report.statuses.map((g) => [g.resource, g.values[0]!.tests.length]));
    // Payments are in order details too: their status counts there; a link's settlement does not.
    expect(seen).toEqual({ order: 1, payment: 1, link: 0 });
    writeTrace([...traceLines, { test: testFile, method: 'GET', route: '/pg/orders/:order_id/', status: 200, statuses: ['payments.status=failed'] }]);
    parity();
    const again = JSON.parse(readFileSync(join(work, 'docs/parity.json'), 'utf8')) as { statuses: { resource: string; values: { tests: string[] }[] }[] };
    // The delivery log's own `status` is not a payment's.
    writeTrace([...traceLines, { test: testFile, method: 'GET', route: '/sandbox/events/', status: 200, statuses: ['status=failed'] }]);
    parity();
    const log = JSON.parse(readFileSync(join(work, 'docs/parity.json'), 'utf8')) as { statuses: { resource: string; values: { tests: string[] }[] }[] };
    expect(Object.fromEntries(log.statuses.map((g) => [g.resource, g.values[0]!.tests.length]))).toEqual({ order: 0, payment: 0, link: 0 });
    writeTrace([...traceLines, { test: testFile, method: 'GET', route: '/pg/orders/:order_id/', status: 200, statuses: ['payments.status=failed'] }]);
    parity();
    // A payment's failed status inside an order's details is not the order's.
    expect(Object.fromEntries(again.statuses.map((g) => [g.resource, g.values[0]!.tests.length]))).toEqual({ order: 0, payment: 1, link: 0 });
    writeFileSync(join(work, 'parity/gateway.json'), JSON.stringify(list));
  });

  it('leaves out test files that may skip themselves or draw random input', () => {
    writeFileSync(join(work, 'test/parity/sometimes.test.ts'), "it.skipIf(!process.env.DISPLAY)('needs a display', () => {});\n");
    writeTrace([...traceLines, { test: 'test/parity/sometimes.test.ts', method: 'POST', route: '/pg/orders/', status: 201 }]);
    parity();
    writeFileSync(join(work, 'test/parity/drawn.test.ts'), "import fc from 'fast-check';\nit('draws', () => {});\n");
    writeTrace([...traceLines, { test: 'test/parity/sometimes.test.ts', method: 'POST', route: '/pg/orders/', status: 201 }, { test: 'test/parity/drawn.test.ts', method: 'POST', route: '/pg/orders/', status: 201 }]);
    parity();
    const md = readFileSync(join(work, 'docs/parity.md'), 'utf8');
    expect(md).toContain('1: `parity/example.test.ts`');
    expect(md).not.toContain('sometimes');
    expect(md).not.toContain('drawn.test');
  });
});
