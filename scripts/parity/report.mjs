// The parity report, computed: the list of what the gateway documents (parity/gateway.json) held
// against the trace of a test run (src/sandbox/parity-trace.ts). Pure functions of their inputs:
// the same list and trace always give the same report, so CI can compare it with the committed one.

/** `/pg/orders/{order_id}/` and `/pg/orders/:order_id/` name the same operation. */
export function operationKey(method, path) {
  return `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/**
 * Which test files count. A file that may skip itself (a browser, tmux, a namespace, a Node line)
 * or draws random input (the model test, property tests, any file using fast-check) would make
 * the report depend on the machine or the seed: their traces are left out, so the committed
 * report is the same everywhere.
 */
export function countedTest(path, source) {
  if (!path) return false;
  if (/^test\/robust\//.test(path) || /\.property\.test\.ts$/.test(path)) return false;
  if (/from ['"]fast-check['"]/.test(source)) return false;
  return !/\b(skipIf|runIf)\(|\.skip\(|ctx\.skip|context\.skip/.test(source);
}

const sorted = (set) => [...set].sort();

function entryTests() {
  return { tests: new Set(), statuses: new Set(), codes: new Set() };
}

/**
 * @param list parity/gateway.json
 * @param lines trace lines of counted tests
 */
export function buildReport(list, lines) {
  const ops = new Map();
  const events = new Map();
  const codes = new Map();
  const statusSeen = [];
  const resourceOf = new Map(list.operations.map((o) => [operationKey(o.method, o.path), o.resource]));
  for (const l of lines) {
    const key = l.route.startsWith('page:') || l.route === 'unrouted' ? l.route : operationKey(l.method, l.route);
    const op = ops.get(key) ?? entryTests();
    op.tests.add(l.test);
    op.statuses.add(l.status);
    if (l.code) op.codes.add(l.code);
    ops.set(key, op);
    for (const e of l.events ?? []) (events.get(e) ?? events.set(e, new Set()).get(e)).add(l.test);
    // An error code is documented with its HTTP status (the same code may come with several).
    if (l.code) {
      for (const key of [l.code, `${l.code} ${l.status}`]) (codes.get(key) ?? codes.set(key, new Set()).get(key)).add(l.test);
    }
    // The delivery log, webhook addresses, faults and snapshots answer the sandbox's own states
    // (a delivery `pending`), not a gateway resource's.
    const ownStates = /^\/sandbox\/(events|webhooks|faults|snapshots|health)\//.test(l.route);
    for (const s of ownStates ? [] : l.statuses ?? []) {
      const at = s.indexOf('=');
      const path = s.slice(0, at).toLowerCase();
      const dot = path.lastIndexOf('.');
      statusSeen.push({ parent: dot < 0 ? '' : path.slice(0, dot), key: path.slice(dot + 1), value: s.slice(at + 1).toLowerCase(), resource: resourceOf.get(key) ?? key, test: l.test });
    }
  }

  const listedOps = new Set();
  const operations = list.operations.map((o) => {
    const key = operationKey(o.method, o.path);
    listedOps.add(key);
    const seen = ops.get(key) ?? entryTests();
    return {
      id: o.id,
      resource: o.resource,
      method: o.method,
      path: o.path,
      documented: o.documented,
      sandbox: o.sandbox,
      why: o.why ?? null,
      cli: o.cli ?? null,
      untested: o.untested ?? null,
      tests: sorted(seen.tests),
      http_statuses: sorted(seen.statuses).map(Number).sort((a, b) => a - b),
      error_codes: sorted(seen.codes),
    };
  });
  const eventRows = list.events.map((e) => ({
    type: e.type,
    documented: e.documented,
    sandbox: e.sandbox,
    why: e.why ?? null,
    untested: e.untested ?? null,
    tests: sorted(events.get(e.type) ?? []),
  }));
  const statusRows = list.statuses.map((group) => ({
    resource: group.resource,
    field: group.field,
    values: group.values.map((v) => ({
      value: v.value,
      documented: v.documented,
      sandbox: v.sandbox,
      why: v.why ?? null,
      tests: sorted(statusTests(statusSeen, group, v.value)),
    })),
  }));
  const listedCodes = new Set(list.errors.map((e) => String(e.code)));
  const errorRows = list.errors.map((e) => ({
    code: String(e.code),
    http: e.http,
    documented: e.documented,
    sandbox: e.sandbox,
    why: e.why ?? null,
    untested: e.untested ?? null,
    tests: sorted(codes.get(e.http === null || e.http === undefined ? String(e.code) : `${e.code} ${e.http}`) ?? []),
  }));
  // What tests saw that the list does not name: the sandbox's own operations and error codes.
  const unlisted = {
    operations: sorted([...ops.keys()].filter((k) => !listedOps.has(k))),
    error_codes: sorted([...codes.keys()].filter((c) => !c.includes(' ') && !listedCodes.has(c))),
    events: sorted([...events.keys()].filter((t) => !list.events.some((e) => e.type === t))),
  };
  const statusValues = statusRows.flatMap((g) => g.values);
  const headline = {
    operations: count(operations),
    events: count(eventRows),
    statuses: count(statusValues),
    error_codes: count(errorRows),
  };
  return { headline, operations, events: eventRows, statuses: statusRows, errors: errorRows, unlisted };
}

/**
 * The resources whose operations answer (or whose events carry) each status list's values: a
 * value counts as seen only there, so an order's `failed` is not taken for a payment's.
 * Unlisted resources: their own operations only.
 */
const STATUS_SCOPE = {
  order: ['orders', 'sandbox'],
  payment: ['payments', 'orders', 'sandbox', 'subscriptions', 'settlements'],
  order_payment: ['orders'],
  link: ['links', 'sandbox'],
  link_payment: ['links'],
  refund: ['refunds', 'sandbox', 'payments', 'orders'],
  sub_merchant: ['merchants', 'sandbox'],
  chargeback: ['sandbox', 'payments', 'orders'],
  subscription_payment: ['subscriptions'],
  payment_event: ['sandbox', 'orders', 'payments', 'subscriptions', 'links', 'refunds'],
  // A virtual account's credits (vendor 11.7.4, 11.7.5) and its simulate-transfer answer (11.7.6)
  // are answered by the VBA operations.
  vba_payment: ['vba'],
  vba_transfer: ['vba'],
};

/**
 * Test files that saw `value` under the list's field: `status`, or `settlement.status` (that
 * parent); a note in brackets after the field's name is not part of it.
 */
function statusTests(seen, group, value) {
  const field = group.field.split(' ')[0].toLowerCase();
  const dot = field.lastIndexOf('.');
  const parent = dot < 0 ? undefined : field.slice(0, dot);
  const key = field.slice(dot + 1);
  const scope = STATUS_SCOPE[group.resource] ?? [group.resource, `${group.resource}s`];
  // Without a parent in the list, the value stands at the top of an answer or event, or inside
  // an object named for the resource (`payments` in an order's details for a payment's status).
  const last = group.resource.split('_').pop();
  const parents = parent === undefined ? ['', group.resource, `${group.resource}s`, last, `${last}s`] : [parent];
  const wanted = String(value).toLowerCase();
  const tests = new Set();
  for (const s of seen) {
    if (s.key === key && s.value === wanted && parents.includes(s.parent) && scope.includes(s.resource)) tests.add(s.test);
  }
  return tests;
}

function count(rows) {
  return {
    documented: rows.length,
    in_sandbox: rows.filter((r) => r.sandbox === 'implemented' || r.sandbox === 'partial' || r.sandbox === 'produced').length,
    exercised: rows.filter((r) => r.tests.length > 0).length,
  };
}

/** Claims no test backs: what `npm test` fails on (each names the entry and what to do). */
export function untestedClaims(report) {
  const problems = [];
  for (const o of report.operations) {
    if ((o.sandbox === 'implemented' || o.sandbox === 'partial') && o.tests.length === 0 && !o.untested) {
      problems.push(`operation ${o.method} ${o.path} (${o.id}) is marked ${o.sandbox} but no test exercises it`);
    }
  }
  for (const e of report.events) {
    if ((e.sandbox === 'implemented' || e.sandbox === 'partial') && e.tests.length === 0 && !e.untested) {
      problems.push(`event ${e.type} is marked ${e.sandbox} but no test causes it`);
    }
  }
  for (const e of report.errors) {
    if (e.sandbox === 'produced' && e.tests.length === 0 && !e.untested) {
      problems.push(`error code ${e.code}${e.http ? ` (HTTP ${e.http})` : ''} is marked produced but no test produces it`);
    }
  }
  return problems;
}
