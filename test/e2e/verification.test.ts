// Payment verification, the commands run in-process, on the embedded sandbox (vendor 11.2-11.4;
// 11.10 P2, P5, P8, P9): the scenario (a VBA transfer → VERIFICATION_NEEDED naming the
// classification → B2B + a services code → 11 fields and the invoice → two submits, the second with
// --document → IN_REVIEW → sandbox verification VERIFIED → settle mark → PAYMENT_SETTLED), the
// refusals with their exit codes, an expiry on the sandbox clock that refunds, and a webhook
// receiver written from the vendor's docs (vendor 1.2, 1.4, 11.4) accepting every compliance event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
let server: Server;
let url: string;
/** Every delivery the receiver accepted, and every one it refused (with why). */
const accepted: { type: string; body: any }[] = [];
const refused: string[] = [];
let encryptionKey = '';

const pgw = (...args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
async function ok(...args: string[]): Promise<string> {
  const r = await pgw(...args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}
const json = async (...args: string[]): Promise<any> => JSON.parse(await ok(...args, '-o', 'json'));

// --- the receiver, from the vendor's docs only -------------------------------------------------
/** vendor 1.2: lowercase hex HMAC-SHA256 of the raw body with the Encryption Key, compared in constant time. */
function signatureValid(raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const want = Buffer.from(createHmac('sha256', encryptionKey).update(raw).digest('hex'));
  const got = Buffer.from(header);
  return got.length === want.length && timingSafeEqual(got, want);
}
/** vendor 1.6 / 11.4: the data keys each compliance event must carry. */
const REQUIRED: Record<string, string[]> = {
  VERIFICATION_NEEDED: ['payment_id', 'order_id', 'verification_status', 'message', 'action_required_fields', 'payment_verification_expiry'],
  PAYMENT_UNDER_REVIEW: ['payment_id', 'order_id', 'verification_status', 'message', 'action_required_fields', 'payment_verification_expiry'],
  LRS_VERIFICATION_NEEDED: ['payment_id', 'order_id', 'verification_status', 'message', 'action_required_fields', 'action_required_documents', 'payment_verification_expiry'],
  VERIFICATION_STATUS: ['payment_id', 'order_id', 'verification_status', 'message', 'documents'],
  PAYMENT_DETAILS_MISSING: ['order_uid', 'payment_id', 'message', 'details_missing'],
};
function problemOf(raw: Buffer, headers: Record<string, unknown>): string | undefined {
  if (!signatureValid(raw, headers['x-webhook-signature'] as string | undefined)) return 'bad X-Webhook-Signature';
  const body = JSON.parse(raw.toString('utf8'));
  if (headers['x-webhook-event'] !== body.event_type) return 'X-Webhook-Event differs from event_type';
  for (const k of ['event_type', 'event_time', 'version', 'sequence_number', 'data']) if (!(k in body)) return `envelope without ${k}`;
  const need = REQUIRED[body.event_type];
  if (need) {
    if (body.version !== '3.0.0') return `${body.event_type} version ${body.version}`;
    const keys = Object.keys(body.data).sort();
    if (JSON.stringify(keys) !== JSON.stringify([...need].sort())) return `${body.event_type} data keys ${keys.join(',')}`;
    if (/Z$|[+-]\d\d:\d\d$/.test(body.event_time)) return `${body.event_type} event_time has an offset`;
  }
  return undefined;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-verification-'));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const why = problemOf(raw, req.headers);
      if (why) {
        refused.push(why);
        res.writeHead(400).end();
        return;
      }
      const body = JSON.parse(raw.toString('utf8'));
      accepted.push({ type: body.event_type, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  await ok('sandbox', 'webhook', 'add', url);
  encryptionKey = await ok('api', 'GET', '/sandbox/encryption-key/', '--query', 'encryption_key');
  expect(encryptionKey.length).toBeGreaterThan(10);
});
afterAll(async () => {
  await new Promise((r) => (server.closeAllConnections(), server.close(r)));
  rmSync(dir, { recursive: true, force: true });
});

const about = (paymentId: string, type: string) => accepted.filter((e) => e.type === type && (e.body.data.payment_id === paymentId));


type Run = (...args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

/** The scenario, through whichever pgw `run` reaches (the embedded sandbox, or sandbox serve). */
async function scenario(run: Run, tag: string): Promise<void> {
  const k = async (...args: string[]) => {
    const r = await run(...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout.trim();
  };
  const j = async (...args: string[]): Promise<any> => JSON.parse(await k(...args, '-o', 'json'));

    const [vba] = await j('vba', 'create');
    const credit = await j('sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '1000', '--utr', `UTRVER${tag}${process.pid}`);
    const pr = credit.payment_id as string;
    await until(() => about(pr, 'VERIFICATION_NEEDED').length === 1);
    expect(accepted.filter((e) => e.body.data.payment_id === pr).map((e) => e.type)).toEqual(['PAYMENT_SUCCESSFUL', 'VERIFICATION_NEEDED']);
    expect(about(pr, 'VERIFICATION_NEEDED')[0]!.body.data).toMatchObject({ verification_status: 'ACTION_REQUIRED', action_required_fields: ['business_model', 'purpose_code'] });

    const first = await j('payment', 'verification', pr);
    expect(first.fields.map((f: any) => f.code)).toEqual(['business_model', 'purpose_code']);
    const table = await k('payment', 'verification', pr, '-o', 'table');
    expect(table).toMatch(/business_model\s+│ .*│ no\s+│ no/);

    const classified = await j('payment', 'verify', pr, '--field', 'business_model=B2B', '--field', 'purpose_code=S0802');
    expect(classified.status).toBe('incomplete');
    const checklist = await j('payment', 'verification', pr);
    expect([checklist.fields.length, checklist.documents.map((d: any) => d.code)]).toEqual([11, ['invoice']]);
    // Declaring the classification raises no fresh event (vendor 11.4.2).
    expect(about(pr, 'VERIFICATION_NEEDED')).toHaveLength(1);

    const one = await j(
      'payment', 'verify', pr,
      '--field', 'buyer_address_line_1=1 Main Street', '--field', 'buyer_city=Bengaluru', '--field', 'buyer_state=Karnataka',
      '--field', 'buyer_postal_code=560034', '--field', 'buyer_email=ap@acme.example', '--field', 'buyer_phone=+919876543210',
      '--field', 'invoice_number=INV-E2E-1', '--field', 'invoice_date=2026-11-01', '--field', 'invoice_amount=1000.00', '--field', 'declaration=true',
    );
    expect(one).toEqual({ payment_id: pr, status: 'incomplete', outstanding: ['invoice'] });
    const pdf = join(dir, `invoice-${tag}.pdf`);
    writeFileSync(pdf, '%PDF-1.4\n%%EOF\n');
    const two = await run('payment', 'verify', pr, '--document', `invoice=${pdf}`, '-o', 'table');
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toMatch(/status\s+in_review/);
    expect(two.stderr).toMatch(/uploaded invoice: invoice-[ES]\.pdf \(\d+ bytes\), ref \d{10}/);
    await until(() => about(pr, 'VERIFICATION_NEEDED').length === 2);
    expect(about(pr, 'VERIFICATION_NEEDED').at(-1)!.body.data).toMatchObject({ verification_status: 'IN_REVIEW', action_required_fields: [], payment_verification_expiry: null });

    const got = await k('payment', 'get', pr, '-o', 'table');
    expect(got).toMatch(/status\s+UNDER_REVIEW/);
    const early = await run('settle', 'mark', pr);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`${pr} is not verified`);

    const verified = await run('sandbox', 'verification', pr, 'verified', '-o', 'table');
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/settlement\s+VERIFIED/);
    const settled = await j('settle', 'mark', pr);
    expect(settled.settlement_id).toMatch(/^ST\d{10}$/);
    await until(() => accepted.some((e) => e.type === 'PAYMENT_SETTLED' && e.body.data.settlements[0].settlement_id === settled.settlement_id));
    expect(accepted.some((e) => e.type === 'PAYMENT_SETTLED' && e.body.data.settlements[0].settlement_id === settled.settlement_id)).toBe(true);
    expect((await j('payment', 'get', pr)).settlement_status).toBe('SETTLED');
}

describe('pgw payment verification / verify, pgw sandbox verification (vendor 11.2, 11.3, 11.4)', () => {
  it('the scenario: transfer → classification asked → B2B services → two submits → in review → VERIFIED → settled', () => scenario(pgw, 'E'));
  it('--waive discharges a waivable document; one that cannot be waived is refused before anything is sent (exit 2, issue 42)', async () => {
    const [vba] = await json('vba', 'create');
    const pr = (await json('sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '10', '--utr', `UTRVW${process.pid}`)).payment_id;
    await ok('payment', 'verify', pr, '--field', 'business_model=B2C', '--field', 'purpose_code=S0303');
    const waived = await json('payment', 'verify', pr, '--waive', 'ticket=Issued at the counter');
    expect(waived.outstanding).not.toContain('ticket');
    const refused = await pgw('payment', 'verify', pr, '--waive', 'invoice=lost');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('invoice cannot be waived');
    const blank = await pgw('payment', 'verify', pr, '--waive', 'ticket=');
    expect([blank.code, blank.stdout]).toEqual([2, '']);
  });

  it('payment get of an open verification shows the state and what is owed', async () => {
    const [vba] = await json('vba', 'create');
    const pr = (await json('sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '10', '--utr', `UTRVG${process.pid}`)).payment_id;
    const out = await ok('payment', 'get', pr, '-o', 'table');
    expect(out).toMatch(/status\s+ACTION_REQUIRED/);
    expect(out).toContain(`business_model, purpose_code (pgw payment verify ${pr})`);
  });

  it('refusals: the gateway\'s 40359/40360 exit 1 naming the code; bad input exit 2 with nothing sent; --dry-run shows both requests without bytes', async () => {
    const [vba] = await json('vba', 'create');
    const pr = (await json('sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '10', '--utr', `UTRVR${process.pid}`)).payment_id;
    // issue 42 item 3: what the gateway would refuse (40359) is caught before anything is sent.
    const alone = await pgw('payment', 'verify', pr, '--field', 'business_model=B2B');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('business_model comes with purpose_code: give both');
    const unknown = await pgw('payment', 'verification', 'PR0000000001');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('40360');
    expect(unknown.stderr).toContain('Payment not found.');
    const sentBefore = (await json('events', 'list')).length;
    const badCode = await pgw('payment', 'verify', pr, '--field', 'shoe_size=42');
    expect([badCode.code, badCode.stdout]).toEqual([2, '']);
    const exe = join(dir, 'run.exe');
    writeFileSync(exe, 'MZ');
    const badFile = await pgw('payment', 'verify', pr, '--document', `invoice=${exe}`);
    expect([badFile.code, badFile.stdout]).toEqual([2, '']);
    expect(badFile.stderr).toContain('must be a pdf, png, jpg, jpeg, docx, xlsx, csv file');
    const big = join(dir, 'big.pdf');
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1, 0x25));
    const tooBig = await pgw('payment', 'verify', pr, '--document', `invoice=${big}`);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain('at most 10 MB');
    const pdf = join(dir, 'dry.pdf');
    writeFileSync(pdf, '%PDF-1.4 SECRET-BYTES\n');
    const dry = await pgw('payment', 'verify', pr, '--field', 'business_model=B2B', '--field', 'purpose_code=S0802', '--document', `invoice=${pdf}`, '--dry-run', '-o', 'json');
    expect(dry.code, dry.stderr).toBe(0);
    const previews = JSON.parse(dry.stdout);
    expect(previews.map((p: any) => `${p.method} ${new URL(p.url).pathname}`)).toEqual([`POST /pg/payments/${pr}/documents/`, `POST /pg/payments/${pr}/verification/`]);
    expect(dry.stdout).not.toContain('SECRET-BYTES');
    expect(previews[1].body.documents).toEqual([{ code: 'invoice', ref: '<ref of dry.pdf>' }]);
    expect((await json('payment', 'verification', pr)).business_model).toBeNull();
    expect((await json('events', 'list')).length).toBe(sentBefore);
    const badStatus = await pgw('sandbox', 'verification', pr, 'done');
    expect([badStatus.code, badStatus.stdout]).toEqual([2, '']);
  });

  it('the receiver accepts every compliance event, each caused by pgw trigger', async () => {
    const made: Record<string, string> = {};
    for (const event of ['VERIFICATION_NEEDED', 'LRS_VERIFICATION_NEEDED', 'PAYMENT_UNDER_REVIEW', 'VERIFICATION_STATUS', 'PAYMENT_DETAILS_MISSING']) {
      const r = await json('trigger', event);
      made[event] = r.payment_id;
      expect(r.events, event).toHaveLength(1);
      // A short run closes with the last event still queued when an earlier delivery was on the
      // wire: the next run to open the database delivers it (docs/sandbox.md, the outbox).
      const got = () => accepted.some((e) => e.type === event && e.body.data.payment_id === r.payment_id);
      for (let i = 0; i < 5 && !got(); i++) {
        await ok('events', 'list', '--limit', '1');
        await until(got, 1000);
      }
      expect(accepted.some((e) => e.type === event && e.body.data.payment_id === r.payment_id), `${event} ${JSON.stringify(refused)} ${JSON.stringify(r)} ${accepted.slice(-3).map((e) => e.type)}`).toBe(true);
    }
    const status = about(made.VERIFICATION_STATUS!, 'VERIFICATION_STATUS')[0]!.body.data;
    expect(status).toMatchObject({ verification_status: 'APPROVED', message: '' });
    const lrs = about(made.LRS_VERIFICATION_NEEDED!, 'LRS_VERIFICATION_NEEDED')[0]!.body.data;
    expect(lrs.action_required_documents.map((d: any) => d.code)).toEqual(['offer_letter', 'passport', 'student_id_or_visa']);
    expect(refused).toEqual([]);
  });

  it('an expiry on the sandbox clock: 7 days after capture the verification EXPIRES and the payment is refunded in full', async () => {
    const pr = (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', '700')).payment_id;
    await ok('sandbox', 'verification', pr, 'ACTION_REQUIRED');
    const opened = about(pr, 'VERIFICATION_NEEDED').at(-1)!.body.data;
    expect(opened.payment_verification_expiry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    await ok('sandbox', 'clock', 'advance', '6d');
    expect((await json('payment', 'get', pr)).settlement_status).toBe('ACTION_REQUIRED');
    await ok('sandbox', 'clock', 'advance', '2d');
    const p = await json('payment', 'get', pr);
    expect(p.settlement_status).toBe('EXPIRED');
    expect(p.refund.map((r: any) => r.refund_amount)).toEqual([700]);
    expect(about(pr, 'VERIFICATION_NEEDED').at(-1)!.body.data).toMatchObject({ verification_status: 'EXPIRED' });
    const refusedSettle = await pgw('settle', 'mark', pr);
    expect(refusedSettle.code).toBe(1);
    expect(refused).toEqual([]);
  });
});

describe('the scenario on pgw sandbox serve', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  let exited: Promise<unknown> | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('runs the same way against a served sandbox, its events delivered by the server', async () => {
    const served = join(dir, 'served');
    mkdirSync(served, { recursive: true });
    const readyFile = join(served, 'ready.json');
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !(key.startsWith('PGW_') && !key.startsWith('PGW_PARITY_'))));
    child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', join(served, 'served.db'), '--ready-file', readyFile, '--quiet'], {
      cwd: ROOT,
      env: { ...clean, NO_COLOR: '1', PGW_CONFIG_DIR: join(served, 'serve') },
    });
    exited = new Promise((r) => child!.on('close', r));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => existsSync(readyFile) || child!.exitCode !== null, 30_000);
    expect(existsSync(readyFile), err).toBe(true);
    const ready = JSON.parse(readFileSync(readyFile, 'utf8'));
    const account = ready.accounts.find((a: { psp: boolean }) => !a.psp);
    const env = { PGW_CONFIG_DIR: join(served, 'client'), PGW_BASE_URL: ready.base_url, PGW_CLIENT_ID: account.client_id, PGW_CLIENT_SECRET: account.client_secret };
    const run: Run = (...args) => pgwInProcess(args, { env });
    const before = encryptionKey;
    encryptionKey = account.encryption_key;
    try {
      const added = await run('sandbox', 'webhook', 'add', url);
      expect(added.code, added.stderr).toBe(0);
      await scenario(run, 'S');
      expect(refused).toEqual([]);
    } finally {
      encryptionKey = before;
    }
  }, 120_000);
});
