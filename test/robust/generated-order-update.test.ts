// Update Order (spec 4.2): generated updates (any non-empty subset of buyer.pan_number, buyer.dob,
// invoice.number, invoice.date, from --file and/or the flags) are accepted by the shared schema
// and sent by `pgw order update` as given; one rule broken is exit 2, that field named, nothing sent.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { orderUpdateSchema, validate } from '../../src/api/schemas/index.js';
import { badDate, identifier, mayShowAsCard, realDate, trimmed } from './helpers-gen-text.js';
import { badChar, fieldMutations, field, getAt, oneOf, set, setAt, tooLong, type Body, type Mutation } from './helpers-gen-mutate.js';
import { RecordingGateway, Workspace, expectNamesOnly, okEnvelope, refusedPaths, runAgainst, runs } from './helpers.js';

const PAN = fc.stringMatching(/^[A-Z]{5}[0-9]{4}[A-Z]$/);
const invoiceNumber = trimmed([...'INVinv0123456789'], [...'INVinv0123456789/-'], 255);

/** The four fields and the flag each one has. */
const FIELDS = [
  { path: 'buyer.pan_number', flag: '--pan', value: PAN },
  { path: 'buyer.dob', flag: '--dob', value: realDate },
  { path: 'invoice.number', flag: '--invoice-number', value: invoiceNumber },
  { path: 'invoice.date', flag: '--invoice-date', value: realDate },
] as const;

/** A non-empty update, as nested JSON. */
const updateBody: fc.Arbitrary<Body> = fc
  .tuple(...FIELDS.map((f) => fc.option(f.value, { nil: undefined })))
  .filter((values) => values.some((v) => v !== undefined))
  .map((values) => values.reduce<Body>((body, v, i) => (v === undefined ? body : setAt(body, FIELDS[i]!.path, v)), {}));

const RULES = [
  field('buyer.pan_number', fc.constantFrom('abcde1234f', 'ABCDE12345', 'ABCD1234F', 'ABCDE1234FG', '')),
  field('buyer.dob', badDate),
  field('invoice.number', fc.oneof(tooLong([...'INV0123456789'], 255), badChar(invoiceNumber, ['#', '_', '.', '@']), fc.constantFrom('', '  '))),
  field('invoice.date', badDate),
];

/** One rule broken: a bad value, a field order update does not take, or an object that is not one. */
const brokenUpdate: fc.Arbitrary<Mutation> = updateBody.chain((body) => {
  const others = (top: string) => Object.keys(body).some((k) => k !== top);
  return oneOf([
    ...fieldMutations(body, RULES),
    fc.constantFrom('buyer.name', 'buyer.email', 'invoice.file', 'amount', 'reference_id').map((path) => set(body, path, 'x', `${path} cannot be updated`)),
    ...['buyer', 'invoice'].filter((top) => body[top] !== undefined && others(top)).map((top) => fc.constantFrom('x', 7, ['a']).map((v) => set(body, top, v, `${top} not an object`))),
  ]);
});

const gw = new RecordingGateway();
const ws = new Workspace();
const ORDER = 'OD0000000042';
gw.respond = (req) => okEnvelope({ success: true, message: 'order updated successfully', data: { order_id: ORDER, ...(req.body as Body) } });
afterAll(async () => {
  await gw.close();
  ws.cleanup();
});

describe('order update', () => {
  it('the schema accepts every generated update and refuses each broken one, naming that field', () => {
    fc.assert(
      fc.property(updateBody, (body) => {
        expect(validate(orderUpdateSchema, body)).toEqual({ ok: true, data: body });
      }),
      { numRuns: runs(300) },
    );
    const schemaRules = brokenUpdate.filter((m) => !m.rule.includes('cannot be updated')); // the schema drops unknown keys; the CLI refuses them
    fc.assert(
      fc.property(schemaRules, (m) => {
        const r = validate(orderUpdateSchema, m.body);
        expect(r.ok, m.rule).toBe(false);
        if (!r.ok) expectNamesOnly(r.problems.map((p) => p.path), m.path, m.rule);
      }),
      { numRuns: runs(300) },
    );
  });

  it('pgw order update sends the fields given, from the file and the flags (a --pan in any case is sent in capitals)', async () => {
    // An invoice number that reads as a card number is printed masked (merchant create tests that case).
    const arb = fc.record({ body: updateBody.filter((b) => !mayShowAsCard(b)), asFlag: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), lowerPan: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(arb, async ({ body, asFlag, lowerPan }) => {
        let file: Body = body;
        const flags: string[] = [];
        FIELDS.forEach((f, i) => {
          const value = getAt(body, f.path) as string | undefined;
          if (value === undefined || !asFlag[i]) return;
          flags.push(`${f.flag}=${f.path === 'buyer.pan_number' && lowerPan ? value.toLowerCase() : value}`);
          file = setAt(file, f.path, undefined);
        });
        const fileArgs = Object.values(file).some((o) => Object.keys(o as Body).length > 0) || flags.length === 0 ? ['--file', ws.file(file)] : [];
        const r = await runAgainst(gw, ws, ['order', 'update', ORDER, ...fileArgs, ...flags, '--json']);
        const sent = gw.take();
        expect(r.code, r.stderr).toBe(0);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatchObject({ method: 'PATCH', path: `/pg/orders/${ORDER}/` });
        expect(sent[0]!.body).toEqual(body);
        expect(JSON.parse(r.stdout)).toEqual({ order_id: ORDER, ...body });
      }),
      { numRuns: runs(120) },
    );
  });

  it('pgw order update refuses one broken rule: exit 2, the field named, nothing sent', async () => {
    const badId = fc.tuple(identifier(20), fc.constantFrom(' ', '/', '.', '?', '%2F', '#')).map(([id, c]) => `${id}${c}x`);
    const arb = fc.oneof(
      { weight: 5, arbitrary: brokenUpdate.map((m) => ({ ...m, id: ORDER })) },
      { weight: 1, arbitrary: fc.tuple(updateBody, badId).map(([body, id]) => ({ rule: `order id ${id}`, path: 'order_id', body, id })) },
    );
    await fc.assert(
      fc.asyncProperty(arb, fc.boolean(), async (m, json) => {
        const r = await runAgainst(gw, ws, ['order', 'update', m.id, '--file', ws.file(m.body), '-o', json ? 'json' : 'table']);
        expect(gw.take(), m.rule).toHaveLength(0);
        expect(r.code, `${m.rule}\n${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expectNamesOnly(refusedPaths(r.stderr, json), m.path, `${m.rule}\n${r.stderr}`);
      }),
      { numRuns: runs(250) },
    );
  });
});
