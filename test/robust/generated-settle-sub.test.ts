// Mark-settled (spec 4.6) and Simulate Payment (spec 4.7), whose "body" is the command line:
// generated payment, refund and chargeback IDs (from arguments, stdin or --from-file) and statuses
// are accepted by the shared schemas and sent as the body the spec names; one rule broken is exit 2,
// that flag or field named, nothing sent.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { markSettledSchema, simulatePaymentSchema, validate } from '../../src/api/schemas/index.js';
import { amountForms, badAmount, identifier, paise } from './helpers-gen-text.js';
import { RecordingGateway, Workspace, expectNamesOnly, okEnvelope, refusedPaths, runAgainst, runs } from './helpers.js';

const gw = new RecordingGateway();
const ws = new Workspace();
gw.respond = (req) =>
  req.path.includes('simulate_payment')
    ? okEnvelope({ payment_id: 'PR0000000001', payment_status: (req.body as { payment_status: string }).payment_status })
    : okEnvelope({ settlement_id: 'ST0000000001', utr_number: 'UTR1', forex_rate: '96', settlement_amount: '1.00', settlement_charges: '0.05', settlement_gst: '0.01' });
afterAll(async () => {
  await gw.close();
  ws.cleanup();
});

const id64 = identifier(64);
/**
 * An ID whose form names no kind (docs/cli.md "IDs", issue 22 item 1): two letters and digits
 * (`rf0`) or digits alone are checked against the kind the flag expects before anything else, so
 * the properties about what is sent, or about length and characters, take the IDs of free form.
 */
const FORM_WITH_KIND = /^([A-Za-z]{2}[0-9]+|[0-9]+)$/;
const freeId = id64.filter((id) => !FORM_WITH_KIND.test(id));
/** Valid in characters, too long for the schema's 64 (idArgument takes up to 100). */
const id65to100 = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_-]{64,99}$/).filter((id) => !FORM_WITH_KIND.test(id));
const badCharId = fc.tuple(identifier(20), fc.constantFrom(' ', '/', '.', '?', '#', '%', '=x')).map(([id, c]) => `${id}${c}1`);
/** In a list of IDs a space separates two of them (issue 22 item 2, docs/cli.md "IDs"): not a bad character there. */
const badCharListId = fc.tuple(identifier(20), fc.constantFrom('/', '.', '?', '#', '%', '=x')).map(([id, c]) => `${id}${c}1`);

/** Refund and chargeback amounts have no upper bound (docs/cli.md): bad means not > 0 with 2 decimals. */
const badDebitAmount = badAmount.filter((a) => typeof a === 'string' && !a.includes('=') && (!/^[0-9]+(\.[0-9]{1,2})?$/.test(a.trim()) || /^0+(\.0+)?$/.test(a.trim())));

/** A debit flag value: `RF123` or `RF123=<amount in any form>`. */
const debit = fc.tuple(freeId, fc.option(paise.chain((p) => amountForms(p).map(String)), { nil: undefined })).map(([id, amount]) => ({ id, arg: amount === undefined ? id : `${id}=${amount}` }));

const markInput = fc.record({
  payments: fc.array(freeId, { minLength: 1, maxLength: 6 }),
  refunds: fc.array(debit, { maxLength: 3 }),
  chargebacks: fc.array(debit, { maxLength: 3 }),
  via: fc.constantFrom('args', 'stdin', 'file'),
});
type MarkInput = typeof markInput extends fc.Arbitrary<infer T> ? T : never;

function markArgv(m: MarkInput): { argv: string[]; input?: string } {
  const debits = [...m.refunds.map((d) => `--refund=${d.arg}`), ...m.chargebacks.map((d) => `--chargeback=${d.arg}`)];
  if (m.via === 'stdin') return { argv: ['settle', 'mark', '-', ...debits], input: `# payments\n${m.payments.join('\n')}\n` };
  if (m.via === 'file') return { argv: ['settle', 'mark', '--from-file', ws.file(`${m.payments.join('\n')}\n`, 'txt'), ...debits] };
  return { argv: ['settle', 'mark', ...m.payments, ...debits] };
}

interface Broken<T> {
  rule: string;
  input: T;
  /** The field path named, or (for commander's own refusals) text stderr must contain. */
  path?: string;
  message?: RegExp;
}

const brokenMark: fc.Arbitrary<Broken<MarkInput>> = markInput.chain((m) =>
  fc.oneof(
    fc.tuple(fc.nat(m.payments.length - 1), badCharListId).map(([i, bad]) => ({ rule: `payment id ${bad}`, path: 'payment_id', input: { ...m, payments: m.payments.map((p, j) => (j === i ? bad : p)) } })),
    fc.tuple(fc.nat(m.payments.length - 1), id65to100).map(([i, long]) => ({ rule: 'payment id of 65+', path: `payment_uids.${i}`, input: { ...m, payments: m.payments.map((p, j) => (j === i ? long : p)) } })),
    fc.constant<Broken<MarkInput>>({ rule: 'no payment id', message: /no payment_id given/, input: { ...m, payments: [], via: 'args' } }),
    fc.tuple(fc.constantFrom('refunds', 'chargebacks') as fc.Arbitrary<'refunds' | 'chargebacks'>, badCharId).map(([kind, bad]) => ({
      rule: `${kind} id ${bad}`,
      path: kind === 'refunds' ? '--refund' : '--chargeback',
      input: { ...m, [kind]: [...m[kind], { id: bad, arg: bad }] },
    })),
    fc.tuple(fc.constantFrom('refunds', 'chargebacks') as fc.Arbitrary<'refunds' | 'chargebacks'>, freeId, badDebitAmount).map(([kind, id, amount]) => ({
      rule: `${kind} amount ${amount}`,
      path: kind === 'refunds' ? '--refund' : '--chargeback',
      input: { ...m, [kind]: [...m[kind], { id, arg: `${id}=${amount}` }] },
    })),
    fc.tuple(fc.constantFrom('refunds', 'chargebacks') as fc.Arbitrary<'refunds' | 'chargebacks'>, id65to100).map(([kind, long]) => ({
      rule: `${kind} id of 65+`,
      path: `${kind === 'refunds' ? 'refund' : 'chargeback'}_uids.${m[kind].length}`,
      input: { ...m, [kind]: [...m[kind], { id: long, arg: long }] },
    })),
  ),
);

/** Exit 2, nothing sent, and the field named (or commander's message shown). */
async function expectRefused(argv: string[], b: { rule: string; path?: string; message?: RegExp }, json: boolean, input?: string): Promise<void> {
  const r = await runAgainst(gw, ws, [...argv, '-o', json ? 'json' : 'table'], { input });
  expect(gw.take(), b.rule).toHaveLength(0);
  expect(r.code, `${b.rule}\n${r.stderr}`).toBe(2);
  expect(r.stdout).toBe('');
  if (b.message) expect(r.stderr).toMatch(b.message);
  else expectNamesOnly(refusedPaths(r.stderr, json), b.path!, `${b.rule}\n${r.stderr}`);
}

describe('settle mark', () => {
  it('the schema accepts generated bodies (refund and chargeback lists defaulting to []) and refuses broken ones', () => {
    const body = fc.record({ payment_uids: fc.array(id64, { minLength: 1 }), refund_uids: fc.array(id64), chargeback_uids: fc.array(id64) }, { requiredKeys: ['payment_uids'] });
    fc.assert(
      fc.property(body, (b) => {
        expect(validate(markSettledSchema, b)).toEqual({ ok: true, data: { refund_uids: [], chargeback_uids: [], ...b } });
      }),
      { numRuns: runs(300) },
    );
    const broken = body.chain((b) =>
      fc.oneof(
        fc.constant({ path: 'payment_uids', body: { ...b, payment_uids: [] } }),
        fc.constant({ path: 'payment_uids', body: { refund_uids: b.refund_uids } }),
        fc.tuple(fc.constantFrom('payment_uids', 'refund_uids', 'chargeback_uids'), fc.constantFrom('PR1', 7, null)).map(([k, v]) => ({ path: k, body: { ...b, [k]: v } })),
        fc.tuple(fc.constantFrom('', '   '), id65to100, fc.boolean()).map(([blank, long, useBlank]) => ({ path: 'payment_uids.0', body: { ...b, payment_uids: [useBlank ? blank : long] } })),
      ),
    );
    fc.assert(
      fc.property(broken, ({ path, body: b }) => {
        const r = validate(markSettledSchema, b);
        expect(r.ok).toBe(false);
        if (!r.ok) expectNamesOnly(r.problems.map((p) => p.path), path, JSON.stringify(b));
      }),
      { numRuns: runs(300) },
    );
  });

  it('pgw settle mark sends payment_uids, refund_uids and chargeback_uids as given (exit 0, one request)', async () => {
    await fc.assert(
      fc.asyncProperty(markInput, async (m) => {
        const { argv, input } = markArgv(m);
        const r = await runAgainst(gw, ws, [...argv, '--json'], { input });
        const sent = gw.take();
        expect(r.code, r.stderr).toBe(0);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatchObject({ method: 'POST', path: '/pg/settlements/mark-settled/' });
        expect(sent[0]!.body).toEqual({ payment_uids: m.payments, refund_uids: m.refunds.map((d) => d.id), chargeback_uids: m.chargebacks.map((d) => d.id) });
      }),
      { numRuns: runs(100) },
    );
  });

  it('pgw settle mark refuses one broken rule: exit 2, the flag or field named, nothing sent', async () => {
    await fc.assert(
      fc.asyncProperty(brokenMark, fc.boolean(), (b, json) => {
        const { argv, input } = markArgv(b.input);
        return expectRefused(argv, b, json, input);
      }),
      { numRuns: runs(250) },
    );
  });
});

const anyCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((up) => [...word].map((c, i) => (up[i] ? c : c.toLowerCase())).join(''));
const simulateInput = fc.record({ sub: id64, status: fc.constantFrom('SUCCESS', 'FAILED').chain(anyCase), paymentId: fc.option(freeId, { nil: undefined }) });
type SimulateInput = typeof simulateInput extends fc.Arbitrary<infer T> ? T : never;

function simulateArgv(s: SimulateInput): string[] {
  return ['sub', 'simulate', s.sub, ...(s.status === '' ? [] : [`--status=${s.status}`]), ...(s.paymentId === undefined ? [] : [`--payment-id=${s.paymentId}`])];
}

const brokenSimulate: fc.Arbitrary<Broken<SimulateInput>> = simulateInput.chain((s) =>
  fc.oneof(
    fc.constantFrom('PENDING', 'SUCCEEDED', 'FAIL', 'OK', ' ').map((status) => ({ rule: `status ${status}`, path: '--status', input: { ...s, status } })),
    fc.constant({ rule: 'no status', message: /required option '--status <status>' not specified/, input: { ...s, status: '' } }),
    badCharId.map((paymentId) => ({ rule: `payment id ${paymentId}`, path: '--payment-id', input: { ...s, paymentId } })),
    id65to100.map((paymentId) => ({ rule: 'payment id of 65+', path: 'payment_id', input: { ...s, paymentId } })),
    badCharId.map((sub) => ({ rule: `subscription id ${sub}`, path: 'subscription_id', input: { ...s, sub } })),
  ),
);

describe('sub simulate', () => {
  it('the schema accepts SUCCESS and FAILED with an optional payment_id, and refuses anything else', () => {
    const body = fc.record({ payment_status: fc.constantFrom('SUCCESS', 'FAILED'), payment_id: id64 }, { requiredKeys: ['payment_status'] });
    fc.assert(
      fc.property(body, (b) => {
        expect(validate(simulatePaymentSchema, b)).toEqual({ ok: true, data: b });
      }),
      { numRuns: runs(200) },
    );
    const broken = body.chain((b) =>
      fc.oneof(
        fc.constantFrom('success', 'PENDING', '', 1, null).map((v) => ({ path: 'payment_status', body: { ...b, payment_status: v } })),
        fc.constant({ path: 'payment_status', body: { payment_id: b.payment_id } }),
        fc.oneof(id65to100, fc.constantFrom('', '  ')).map((v) => ({ path: 'payment_id', body: { ...b, payment_id: v } })),
      ),
    );
    fc.assert(
      fc.property(broken, ({ path, body: b }) => {
        const r = validate(simulatePaymentSchema, b);
        expect(r.ok).toBe(false);
        if (!r.ok) expectNamesOnly(r.problems.map((p) => p.path), path, JSON.stringify(b));
      }),
      { numRuns: runs(200) },
    );
  });

  it('pgw sub simulate sends payment_status in capitals and payment_id when given (exit 0, one request)', async () => {
    await fc.assert(
      fc.asyncProperty(simulateInput, async (s) => {
        const r = await runAgainst(gw, ws, [...simulateArgv(s), '--json']);
        const sent = gw.take();
        expect(r.code, r.stderr).toBe(0);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatchObject({ method: 'POST', path: `/pg/subscriptions/${s.sub}/simulate_payment/` });
        expect(sent[0]!.body).toEqual({ payment_status: s.status.toUpperCase(), ...(s.paymentId === undefined ? {} : { payment_id: s.paymentId }) });
      }),
      { numRuns: runs(100) },
    );
  });

  it('pgw sub simulate refuses one broken rule: exit 2, the flag or field named, nothing sent', async () => {
    await fc.assert(
      fc.asyncProperty(brokenSimulate, fc.boolean(), (b, json) => expectRefused(simulateArgv(b.input), b, json)),
      { numRuns: runs(200) },
    );
  });
});
