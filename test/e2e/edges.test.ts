// Issue 13, the commands run in-process (bytes on stdin through the binary): what is sent when we
// say nothing is, what a hostile gateway on 127.0.0.1 gets printed or written, and the rails of
// `pgw api` and of a production host however it is written. Each test names its item of the issue.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultServer, type FaultContext, type FaultServer } from '../robust/fault-server.js';
import { spawn } from 'node:child_process';
import { BIN, type SpawnResult } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

const SECRET = 'sk_edges_secret_4f1e2d';
const CARD = '4000056655665556';
const GROUPED = '4000 0566 5566 5556';
const DASHED = '4000-0566-5566-5556';
const CVV = '987';
/** Luhn-valid order IDs (issue 13 item 17): their digits pass the check a card number passes. */
const LUHN_ORDER_IDS = ['OD31190213516414', 'OD44052772549076'];

let dir: string;
let server: FaultServer;
let answer: (ctx: FaultContext) => void = ({ res }) => res.writeHead(500).end();

beforeAll(async () => {
  server = await startFaultServer({ onRequest: (ctx) => answer(ctx) });
});
afterAll(async () => {
  await server.close();
});

function fresh(): void {
  dir = mkdtempSync(join(tmpdir(), 'pgw-edges-'));
  server.attempts.length = 0;
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = (data: unknown) => (ctx: FaultContext) => {
  ctx.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', data }));
};
const fail = (status: number, message: string) => (ctx: FaultContext) => {
  ctx.res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'ERR_X_001', message, details: { note: message } } }));
};

async function pgw(args: string[], o: { input?: string; env?: Record<string, string> } = {}): Promise<SpawnResult> {
  return pgwInProcess(args, {
    input: o.input,
    env: { PGW_CONFIG_DIR: dir, PGW_BASE_URL: server.base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: SECRET, ...o.env },
  });
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function template(noun: 'order' | 'merchant'): Promise<string> {
  const r = await pgwInProcess([noun, 'create', '--print-template'], { env: { PGW_CONFIG_DIR: dir } });
  return file(`${noun}.json`, r.stdout);
}

const cardFile = () =>
  file('card.json', { number: CARD, cardholder_name: 'Asha Verma', expiry_month: '12', expiry_year: String(new Date().getUTCFullYear() + 3), cvv: CVV, network: 'visa', nickname: 'Personal', identifier: 'cust-1' });

describe('item 1: a bad --query is refused before anything is sent', () => {
  it('merchant create and settle mark exit 2 and send nothing', async () => {
    fresh();
    answer = ok({ id: '1000000001' });
    const merchant = await template('merchant');
    const created = await pgw(['merchant', 'create', '--file', merchant, '--query', 'id[[']);
    expect(created.code, created.stderr).toBe(2);
    const marked = await pgw(['settle', 'mark', 'PR1000000001', '--query', 'x[[']);
    expect(marked.code, marked.stderr).toBe(2);
    const unknownFunction = await pgw(['merchant', 'create', '--file', merchant, '--query', 'nope(id)']);
    expect(unknownFunction.code).toBe(2);
    expect(server.attempts).toEqual([]);
  });

  it('item 13: a gateway answering 20,000-deep JSON is an unexpected response (exit 1), with and without -v', async () => {
    fresh();
    const deep = `{"success":true,"message":"ok","data":{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    answer = (ctx) => ctx.res.writeHead(200, { 'content-type': 'application/json' }).end(deep);
    for (const extra of [[], ['-v']]) {
      const r = await pgw(['payment', 'get', 'PR1000000001', '-o', 'table', ...extra]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/unexpected response/);
      expect(r.stderr).not.toMatch(/call stack/);
    }
  });
});

describe('item 2: card numbers a gateway quotes back in groups', () => {
  it('are masked on stderr, stdout and in -v, and the 3-D Secure page is written without them or the CVV', async () => {
    fresh();
    const order = await template('order');
    const quoted = `Card ${GROUPED} (${DASHED}) declined`;
    answer = fail(400, quoted);
    const refused = await pgw(['order', 'create', '--file', order, '--mode', 's2s', '--mop', 'credit_card', '--card-file', cardFile(), '-v', '-o', 'table']);
    expect(refused.code).toBe(1);
    for (const text of [refused.stdout, refused.stderr]) {
      expect(text.replace(/[ -]/g, '')).not.toContain(CARD);
    }
    expect(refused.stderr).toContain('4000 05** **** 5556');

    const html = `<form><p>${quoted}</p><input name="cvv" value="${CVV}"><input name="pan" value="${GROUPED}"></form>`;
    answer = ok({ order_id: 'OD1000000001', acs_template: Buffer.from(html).toString('base64'), note: quoted });
    const acsOut = join(dir, 'acs.html');
    const created = await pgw(['order', 'create', '--file', order, '--mode', 's2s', '--mop', 'credit_card', '--card-file', cardFile(), '--json', '--acs-out', acsOut]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.replace(/[ -]/g, '')).not.toContain(CARD);
    const page = readFileSync(acsOut, 'utf8');
    expect(page.replace(/[ -]/g, '')).not.toContain(CARD);
    expect(page).toContain('value="***"');
    expect(page).not.toContain(`"${CVV}"`);
  });

  it('a card number in the success data of a request without one is masked too', async () => {
    fresh();
    answer = ok({ payment_id: 'PR1000000001', note: `paid with ${GROUPED}`, card_number: CARD });
    const r = await pgw(['payment', 'get', 'PR1000000001', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/[ -]/g, '')).not.toContain(CARD);
    expect(JSON.parse(r.stdout).payment_id).toBe('PR1000000001');
  });
});

describe('item 3: the client secret echoed in success data', () => {
  it('is redacted in payment get, settle get, link get and api', async () => {
    fresh();
    answer = (ctx) => ok({ payment_id: 'PR1000000001', settlement_id: 'ST1000000001', link_id: 'PR1000000002', secret: ctx.req.headers['x-client-secret'], note: `key ${String(ctx.req.headers['x-client-secret'])}` })(ctx);
    for (const args of [['payment', 'get', 'PR1000000001'], ['settle', 'get', 'ST1000000001'], ['link', 'get', 'PR1000000002'], ['api', 'GET', '/pg/payments/PR1000000001/']]) {
      for (const format of [['--json'], ['-o', 'table']]) {
        const r = await pgw([...args, ...format]);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(`${r.stdout}${r.stderr}`, args.join(' ')).not.toContain(SECRET);
      }
    }
    expect(server.attempts.length).toBe(8);
  });
});

describe('item 4: pgw api keeps the production rails', () => {
  it('sandbox-only paths exit 6 on production before any request; other changes need --yes', async () => {
    fresh();
    answer = ok({});
    const prod = { PGW_BASE_URL: '', PGW_PROFILE: 'prod' };
    const added = await pgw(['profile', 'add', 'prod', '--env', 'production', '--base-url', server.base, '--client-id', 'cid', '--client-secret-stdin'], { input: SECRET, env: { PGW_BASE_URL: '' } });
    expect(added.code, added.stderr).toBe(0);
    for (const [method, path] of [
      ['POST', '/pg/settlements/mark-settled/'],
      ['POST', '/sandbox/reset/'],
      ['GET', '/sandbox/orders/'],
      ['POST', '/pg/subscriptions/SUB1/simulate_payment/'],
      ['POST', '/pg/%2e%2e/Sandbox//reset/'],
    ] as const) {
      const r = await pgw(['api', method, path, '--yes'], { env: prod });
      expect(r.code, `${method} ${path}: ${r.stderr}`).toBe(6);
    }
    for (const [method, path] of [['PATCH', '/pg/orders/OD1/'], ['DELETE', '/pg/x/1/'], ['POST', '/pg/orders/']] as const) {
      const r = await pgw(['api', method, path], { env: prod });
      expect(r.code, `${method} ${path}: ${r.stderr}`).toBe(6);
    }
    expect(server.attempts).toEqual([]);
    const confirmed = await pgw(['api', 'PATCH', '/pg/orders/OD1/', '--yes'], { env: prod });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    const read = await pgw(['api', 'GET', '/pg/payments/PR1/'], { env: prod });
    expect(read.code, read.stderr).toBe(0);
    expect(server.attempts.map((a) => a.method)).toEqual(['PATCH', 'GET']);
  });
});

describe('item 5: the production host however it is written', () => {
  it.each(['https://api-pacb.eximpe.com.', 'https://API-PACB.EXIMPE.COM', 'https://api-pacb.eximpe%2ecom', 'https://api-pacb\u3002eximpe\uff0ecom', 'https://api-pacb\uff61eximpe.com..'])(
    '%s is production: banner and exit 6 for a sandbox-only command',
    async (base) => {
      fresh();
      const r = await pgw(['sub', 'simulate', 'SUB1', '--status', 'SUCCESS', '--dry-run'], { env: { PGW_BASE_URL: base } });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toContain('PRODUCTION');
    },
  );
});

describe('item 17: the gateway identifiers are never masked', () => {
  it('a Luhn-valid order ID stays whole in a dry run and in -v', async () => {
    fresh();
    for (const id of LUHN_ORDER_IDS) {
      const dry = await pgw(['order', 'update', id, '--invoice-number', 'X', '--dry-run', '-o', 'table']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`/pg/orders/${id}/`);
      answer = fail(404, `Order ${id} not found`);
      const verbose = await pgw(['-v', 'payment', 'get', id.replace('OD', 'PR')]);
      expect(verbose.stderr).toContain(id.replace('OD', 'PR'));
      expect(verbose.stderr).not.toMatch(/\*{4}/);
    }
    const local = await pgwInProcess(['-v', 'sandbox', 'pay', LUHN_ORDER_IDS[1]!], { env: { PGW_CONFIG_DIR: dir } });
    expect(local.stderr).toContain(`/sandbox/orders/${LUHN_ORDER_IDS[1]}/pay/`);
    expect(local.stderr).not.toContain('OD440527****9076');
  });
});

describe('item 9: a card number given as an ID', () => {
  it('is masked in the errors about it, in a table run and in JSON', async () => {
    fresh();
    answer = fail(404, 'not found');
    for (const format of [['-o', 'table'], ['--json']]) {
      const r = await pgw(['payment', 'get', CARD, 'PR1000000001', ...format]);
      expect(r.code).toBe(5);
      expect(`${r.stdout}${r.stderr}`).not.toContain(CARD);
      expect(r.stderr).toContain('400005******5556');
    }
  });
});

describe('item 10: values are not echoed back', () => {
  it('an unknown option keeps its value to itself; inline --data is not repeated', async () => {
    fresh();
    const unknown = await pgw(['profile', 'add', 'ci', '--client-secret=TOPSECRET', '-o', 'table']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).not.toContain('TOPSECRET');
    expect(unknown.stderr).toContain('--client-secret');
    const inline = await pgw(['api', 'POST', '/pg/orders/', '--data', '{"cvv":"9876"}', '-o', 'table']);
    expect(inline.code).toBe(2);
    expect(inline.stderr).not.toContain('9876');
    expect(server.attempts).toEqual([]);
  });
});

describe('item 16: the option parser errors in JSON mode', () => {
  it('are the {"error":{...}} object on stderr, nothing on stdout', async () => {
    fresh();
    for (const args of [['--json', 'payment', 'get', 'PR1', '--bogus'], ['payment', 'get', '--query', 'x', 'PR1', '--bogus'], ['-o', 'json', 'nosuchcommand']]) {
      const r = await pgw(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const parsed = JSON.parse(r.stderr) as { error: { code: string; message: string } };
      expect(parsed.error.code).toBe('USAGE');
      expect(parsed.error.message.length).toBeGreaterThan(0);
    }
    const human = await pgw(['-o', 'table', 'payment', 'get', 'PR1', '--bogus']);
    expect(human.stderr).toMatch(/^error: unknown option '--bogus'/);
  });
});

describe('item 8: an existing PGW_CONFIG_DIR keeps its mode', () => {
  it.runIf(process.platform !== 'win32')('a 1777 directory keeps its sticky bit and others their access, even after profile add', async () => {
    fresh();
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const list = await pgwInProcess(['profile', 'list', '--json'], { env: { PGW_CONFIG_DIR: shared } });
    expect(list.code, list.stderr).toBe(0);
    const add = await pgwInProcess(['profile', 'add', 'ci', '--client-id', 'cid', '--client-secret-stdin'], { input: SECRET, env: { PGW_CONFIG_DIR: shared } });
    expect(add.code, add.stderr).toBe(0);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(statSync(join(shared, 'config.json')).mode & 0o777).toBe(0o600);
    const created = join(dir, 'new', 'cfg');
    await pgwInProcess(['profile', 'list'], { env: { PGW_CONFIG_DIR: created } });
    expect(statSync(created).mode & 0o777).toBe(0o700);
  });
});

describe('item 12: local faults say what and where', () => {
  it('a corrupt sandbox.db names the file; the error is one line and a hint', async () => {
    fresh();
    writeFileSync(join(dir, 'sandbox.db'), 'this is not a database, not at all. '.repeat(40));
    const r = await pgwInProcess(['payment', 'get', 'PR1', '-o', 'table'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(dir, 'sandbox.db'));
    expect(r.stderr).toMatch(/not a database/);
    expect(r.stderr).not.toMatch(/unexpected failure/);
  });

  it('20,000-deep nested JSON in --file is refused as input (exit 2), not a crash (item 13)', async () => {
    fresh();
    const deep = file('deep.json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    for (const args of [['order', 'create', '--file', deep], ['merchant', 'create', '--file', deep], ['api', 'POST', '/pg/orders/', '--data', `@${deep}`]]) {
      const r = await pgw([...args, '-o', 'table']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).not.toMatch(/call stack/);
    }
    expect(server.attempts).toEqual([]);
  });
});

describe('item 14: merchant list --all against a gateway that always names a next page', () => {
  it('stops at the count it reported, and on a page of merchants already listed', async () => {
    fresh();
    let n = 0;
    answer = (ctx) => {
      const page = [1, 2, 3].map(() => ({ id: String(1000000000 + ++n), brand_name: `M${n}` }));
      ok({ count: 3, page: 1, page_size: 3, next: `${server.base}/partners/merchants/?page=2&page_size=3`, results: page })(ctx);
    };
    const counted = await pgw(['merchant', 'list', '--all', '--json']);
    expect(counted.code, counted.stderr).toBe(0);
    expect(JSON.parse(counted.stdout)).toHaveLength(3);
    expect(server.attempts.length).toBe(1);

    server.attempts.length = 0;
    answer = ok({ next: `${server.base}/partners/merchants/?page=2`, results: [{ id: '1000000001' }, { id: '1000000002' }] });
    const looping = await pgw(['merchant', 'list', '--all', '--json']);
    expect(looping.code).toBe(1);
    expect(looping.stderr).toMatch(/already listed/);
    expect(server.attempts.length).toBe(2);
  });
});

describe('item 6: the subscription amount limit is checked before sending', () => {
  it('sandbox subscription create --amount past 10,000,000.00 exits 2, nothing sent', async () => {
    fresh();
    for (const amount of ['10000000.01', '99999999999999999.99']) {
      const r = await pgw(['sandbox', 'subscription', 'create', '--amount', amount, '-o', 'table']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/at most 10000000\.00/);
    }
    expect(server.attempts).toEqual([]);
  });
});

describe('item 15: header values, durations and secrets checked locally', () => {
  it('a line break in the merchant or client id is bad input (exit 2), not a network failure', async () => {
    fresh();
    const merchant = await pgw(['-m', '123\r\nX: y', 'payment', 'get', 'PR1', '-o', 'table']);
    expect(merchant.code, merchant.stderr).toBe(2);
    expect(merchant.stderr).toMatch(/invalid merchant id .* \(from --merchant\)/);
    const client = await pgw(['payment', 'get', 'PR1', '-o', 'table'], { env: { PGW_CLIENT_ID: 'a\nb' } });
    expect(client.code, client.stderr).toBe(2);
    expect(client.stderr).toMatch(/PGW_CLIENT_ID/);
    expect(server.attempts).toEqual([]);
  });

  it('sandbox link create --expires-in beyond 365 days (vendor N9) is refused before sending', async () => {
    for (const beyond of ['366d', '31536001']) {
      fresh();
      const r = await pgw(['sandbox', 'link', 'create', '--order', 'OD1000000001', '--expires-in', beyond, '-o', 'table']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--expires-in: must be at most 365 days/);
      expect(server.attempts).toEqual([]);
    }
  });

  it('a secret that is not valid UTF-8 on --client-secret-stdin is refused, not stored altered', async () => {
    fresh();
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'profile', 'add', 'ci', '--client-id', 'cid', '--client-secret-stdin', '-o', 'table'], { env: { ...process.env, PGW_CONFIG_DIR: dir, NO_COLOR: '1' } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end(Buffer.from([0x73, 0x6b, 0x5f, 0xff, 0xfe, 0x41]));
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/not valid UTF-8/);
    const list = await pgwInProcess(['profile', 'list', '--json'], { env: { PGW_CONFIG_DIR: dir } });
    expect(list.stdout).not.toContain('"ci"');
  });
});

describe('item 18 and the --skip-invalid hint: a bulk run resumed as printed, on the same account only', () => {
  it('the hint carries -p; a resume with another profile is refused (exit 2); --skip-invalid is not suggested twice', async () => {
    fresh();
    const local = { PGW_CONFIG_DIR: dir };
    const body = JSON.parse((await pgwInProcess(['merchant', 'create', '--print-template'], { env: local })).stdout) as { company_details: Record<string, unknown> };
    const line = (brand: string) => JSON.stringify({ ...body, company_details: { ...body.company_details, brand_name: brand } });
    const bad = JSON.stringify({ ...body, company_details: { ...body.company_details, brand_name: 'Bad', hs_codes: ['12'] } });
    const bulk = file('bulk.jsonl', `${line(`Edge A ${Date.now()}`)}\n${bad}\n${line(`Edge C ${Date.now()}`)}\n`);
    const results = join(dir, 'res.jsonl');
    const first = await pgwInProcess(['-p', 'local-psp', 'merchant', 'create', '--file', bulk, '--results', results, '--skip-invalid', '-o', 'table'], { env: local });
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toContain(`run: pgw -p local-psp merchant create --file ${bulk} --resume ${results}`);
    expect(JSON.parse(readFileSync(results, 'utf8').split('\n')[0]!)).toMatchObject({ account: { gateway: expect.stringContaining('embedded sandbox') } });

    const other = await pgwInProcess(['merchant', 'create', '--file', bulk, '--resume', results, '-o', 'table'], { env: local });
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toMatch(/--resume: .* was written for .*, not /);
    expect(other.stdout).toBe('');

    const again = await pgwInProcess(['-p', 'local-psp', 'merchant', 'create', '--file', bulk, '--resume', results, '--skip-invalid', '-o', 'table'], { env: local });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/company_details\.hs_codes/);
    expect(again.stderr).not.toMatch(/add --skip-invalid/);
  });
});

describe('the one-character secret: redacted as a whole value', () => {
  it('-v shows X-Client-Secret: [redacted] and leaves every other "x" alone', async () => {
    fresh();
    answer = ok({ payment_id: 'PR1000000001', note: 'max tax x-ray' });
    const r = await pgw(['-v', 'payment', 'get', 'PR1000000001', '--json'], { env: { PGW_CLIENT_SECRET: 'x' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('X-Client-Secret: [redacted]');
    expect(r.stderr).toContain('Accept: application/json');
    expect(r.stderr).toContain('max tax x-ray');
    expect(r.stdout).toContain('max tax x-ray');
  });
});

describe('item 9: a card number given as a payment ID to settle mark --dry-run', () => {
  it('is masked in the details', async () => {
    fresh();
    answer = fail(404, 'Payment not found');
    const r = await pgw(['settle', 'mark', CARD, '--dry-run', '-o', 'table']);
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(CARD);
  });
});
