// The sandbox helper verbs against the embedded sandbox (profile local, in-process, real HTTP),
// their bad-input paths, --dry-run, and the production rail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { fakePrompter } from '../helpers/fake-prompter.js';

let config: { dir: string; cleanup: () => void };
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const pgw = (argv: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(argv, { ...opts, env: { PGW_CONFIG_DIR: config.dir, ...opts.env } });

async function json<T>(argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

async function newOrder(): Promise<string> {
  // An order from the seed is already paid; create a fresh one through the raw API command.
  const seeded = await json<{ orders: string[]; payments: string[] }>(['sandbox', 'seed']);
  return seeded.orders[seeded.orders.length - 1]!;
}

describe('sandbox pay', () => {
  it('captures an order and prints the payment', async () => {
    const orderId = await newOrder();
    const payment = await json<{ payment_id: string; status: string; order: { order_id: string } }>(['sandbox', 'pay', orderId]);
    expect(payment.payment_id).toMatch(/^PR[0-9]{10}$/);
    expect(payment.status).toBe('captured');
    expect(payment.order.order_id).toBe(orderId);
  });

  it('--fail records a failed payment; table output shows it', async () => {
    const orderId = await newOrder();
    const r = await pgw(['sandbox', 'pay', orderId, '--fail', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/status\s+failed/);
    expect(r.stdout).toContain(orderId);
  });

  it('an unknown order is exit 5, a bad --mop exit 2 with nothing sent', async () => {
    expect((await pgw(['sandbox', 'pay', 'OD000'])).code).toBe(5);
    const agent = new MockAgent();
    agent.disableNetConnect();
    const bad = await pgw(['sandbox', 'pay', 'OD1', '--mop', 'cash', '-o', 'table'], { dispatcher: agent });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --mop: "cash" is not one of upi, credit_card, debit_card, net_banking, qr\n');
    agent.assertNoPendingInterceptors();
  });
});

describe('sandbox refund and chargeback', () => {
  it('add RF and CB records to a captured payment', async () => {
    const payments = await json<string[]>(['sandbox', 'seed', '--payments', '1']);
    // sandbox refund is refund create (POST /pg/refunds/) on a sandbox profile.
    const refund = await json<{ refund_id: string; refund_amount: string }>(['sandbox', 'refund', payments[0]!, '--amount', '100']);
    expect(refund.refund_id).toMatch(/^RF/);
    expect(refund.refund_amount).toBe(100);
    const cb = await json<{ chargeback_id: string; amount: string }>(['sandbox', 'chargeback', payments[0]!, '--amount', '50.5']);
    expect(cb.chargeback_id).toMatch(/^CB/);
    expect(cb.amount).toBe('50.50');
  });

  it.each([['abc'], ['-5'], ['0'], ['1.234']])('refuses --amount %s with exit 2', async (amount) => {
    const r = await pgw(['sandbox', 'refund', 'PR1234567890', '--amount', amount, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --amount: /);
  });

  it('--dry-run prints the request with the secret redacted and sends nothing', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const r = await pgw(['sandbox', 'refund', 'PR1234567890', '--amount', '10', '--dry-run', '--json'], {
      dispatcher: agent,
      env: { PGW_BASE_URL: 'https://sandbox.example', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' },
    });
    expect(r.code).toBe(0);
    const preview = JSON.parse(r.stdout) as { method: string; url: string; body: unknown; headers: Record<string, string> };
    expect(preview.method).toBe('POST');
    expect(preview.url).toBe('https://sandbox.example/pg/refunds/');
    expect(preview.body).toEqual({ payment_id: 'PR1234567890', refund_amount: '10.00' });
    expect(r.stdout + r.stderr).not.toContain('sk_marker_0123456789');
    agent.assertNoPendingInterceptors();
  });
});

describe('sandbox link, subscription, webhook', () => {
  it('creates a link with an expiry and deactivates it (it then reads expired)', async () => {
    const orderId = await newOrder();
    const link = await json<{ link_id: string; status: string; expiry_date: string; payment_link: string }>([
      'sandbox', 'link', 'create', '--order', orderId, '--expires-in', '2h',
    ]);
    expect(link.status).toBe('active');
    expect(link.payment_link).toMatch(/\/p\/[^/]+\/$/);
    const hours = (Date.parse(link.expiry_date) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThan(2.1);
    const off = await json<{ status: string }>(['sandbox', 'link', 'deactivate', link.link_id]);
    expect(off.status).toBe('expired');
  });

  it('refuses a bad duration', async () => {
    const r = await pgw(['sandbox', 'link', 'create', '--order', 'OD1', '--expires-in', 'soon', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--expires-in: "soon" is not a duration');
  });

  it('creates a subscription and prints its uid', async () => {
    const sub = await json<{ uid: string; amount: string }>(['sandbox', 'subscription', 'create', '--amount', '499']);
    expect(sub.uid).toBeTruthy();
    expect(sub.amount).toBe('499.00');
  });

  it('registers a webhook; refuses a non-http address', async () => {
    const hook = await json<{ id: unknown; url: string }>(['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/hook']);
    expect(hook.url).toBe('http://127.0.0.1:9/hook');
    const bad = await pgw(['sandbox', 'webhook', 'add', 'ftp://x', '-o', 'table']);
    expect(bad.code).toBe(2);
  });
});

describe('sandbox seed and reset', () => {
  it('--payments N makes N captured payments and prints their IDs', async () => {
    const ids = await json<string[]>(['sandbox', 'seed', '--payments', '5']);
    expect(ids).toHaveLength(5);
    for (const id of ids) expect(id).toMatch(/^PR[0-9]{10}$/);
    const bad = await pgw(['sandbox', 'seed', '--payments', '0', '-o', 'table']);
    expect(bad.code).toBe(2);
  });

  it('reset needs --yes off a terminal (exit 6), asks in one, and empties the sandbox', async () => {
    const { payments } = await json<{ payments: string[] }>(['sandbox', 'seed']);
    const refused = await pgw(['sandbox', 'reset', '-o', 'table']);
    expect(refused.code).toBe(6);
    const declined = await pgw(['sandbox', 'reset'], { tty: true, prompter: fakePrompter(false) });
    expect(declined.code).toBe(6);
    expect((await pgw(['payment', 'get', payments[0]!])).code).toBe(0);
    const done = await pgw(['sandbox', 'reset'], { tty: true, prompter: fakePrompter(true) });
    expect(done.code).toBe(0);
    expect((await pgw(['payment', 'get', payments[0]!])).code).toBe(5);
  });
});

describe('sandbox reset scoping (issue 21 item 6)', () => {
  it("a PSP's prompt names its sub-merchants and what goes; the merchant's data survives", async () => {
    const merchant = await json<string[]>(['sandbox', 'seed', '--payments', '1']);
    const psp = await json<string[]>(['-p', 'local-psp', 'sandbox', 'seed', '--payments', '2']);
    const prompter = fakePrompter(true);
    const done = await pgw(['-p', 'local-psp', 'sandbox', 'reset'], { tty: true, prompter });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/sub-merchant Demo Sub-merchant One \([0-9]+\): its data/);
    expect(done.stderr).toMatch(/sub-merchant Demo Sub-merchant Two/);
    expect(done.stderr).toContain('2 orders, 2 payments');
    expect(done.stderr).toContain('and its 2 sub-merchants');
    expect((await pgw(['-p', 'local-psp', 'payment', 'get', psp[0]!])).code).toBe(5);
    expect((await pgw(['payment', 'get', merchant[0]!])).code).toBe(0);
  });

  it('--all empties every account, only through the file: the embedded profile or --db', async () => {
    const merchant = await json<string[]>(['sandbox', 'seed', '--payments', '1']);
    const psp = await json<string[]>(['-p', 'local-psp', 'sandbox', 'seed', '--payments', '1']);
    const asked = await pgw(['sandbox', 'reset', '--all'], { tty: true, prompter: fakePrompter(false) });
    expect(asked.code).toBe(6);
    expect(asked.stderr).toContain('whole sandbox database');
    const all = await pgw(['sandbox', 'reset', '--all', '--yes', '-o', 'table']);
    expect(all.code, all.stderr).toBe(0);
    expect((await pgw(['payment', 'get', merchant[0]!])).code).toBe(5);
    expect((await pgw(['-p', 'local-psp', 'payment', 'get', psp[0]!])).code).toBe(5);
  });

  it('--all against a server over HTTP is exit 2 with nothing sent; --db needs --all', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const env = { PGW_BASE_URL: 'http://127.0.0.1:9', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' };
    const remote = await pgw(['sandbox', 'reset', '--all', '--yes', '-o', 'table'], { dispatcher: agent, env });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--db <file>');
    const noAll = await pgw(['sandbox', 'reset', '--db', 'x.db', '--yes', '-o', 'table'], { dispatcher: agent, env });
    expect(noAll.code).toBe(2);
    agent.assertNoPendingInterceptors();
  });
});

describe('snapshots on the embedded profile (issue 24)', () => {
  it('seed --snapshot saves the whole database; restore --yes brings it back; restore asks first', async () => {
    const first = await json<string[]>(['sandbox', 'seed', '--payments', '1', '--snapshot', 'base']);
    const later = await json<string[]>(['-p', 'local-psp', 'sandbox', 'seed', '--payments', '1']);
    const listed = await json<{ name: string; scope: string; payments: number }[]>(['sandbox', 'snapshot', 'list']);
    expect(listed).toMatchObject([{ name: 'base', scope: 'global', payments: 1 }]);
    // The table names the scope as JSON does.
    expect((await pgw(['sandbox', 'snapshot', 'list', '-o', 'table'])).stdout).toMatch(/│ base +│ global +│/);
    expect((await pgw(['sandbox', 'snapshot', 'restore', 'base', '-o', 'table'])).code).toBe(6);
    const declined = await pgw(['sandbox', 'snapshot', 'restore', 'base'], { tty: true, prompter: fakePrompter(false) });
    expect(declined.code).toBe(6);
    expect((await pgw(['-p', 'local-psp', 'payment', 'get', later[0]!])).code).toBe(0);
    expect((await pgw(['sandbox', 'snapshot', 'restore', 'base', '--yes', '-o', 'table'])).code).toBe(0);
    expect((await pgw(['-p', 'local-psp', 'payment', 'get', later[0]!])).code).toBe(5);
    expect((await pgw(['payment', 'get', first[0]!])).code).toBe(0);
    expect((await pgw(['sandbox', 'snapshot', 'restore', 'nope', '--yes', '-o', 'table'])).code).toBe(5);
    expect((await pgw(['sandbox', 'snapshot', 'save', '../x', '-o', 'table'])).code).toBe(2);
    expect((await pgw(['sandbox', 'snapshot', 'delete', 'base', '--yes', '-o', 'table'])).code).toBe(0);
    expect(await json(['sandbox', 'snapshot', 'list'])).toEqual([]);
  });
});

describe('production rail', () => {
  it.each([
    [['sandbox', 'pay', 'OD1']],
    [['sandbox', 'refund', 'PR1234567890', '--amount', '1']],
    [['sandbox', 'seed']],
    [['sandbox', 'reset', '--yes']],
    [['sandbox', 'link', 'create', '--order', 'OD1']],
  ])('%j is refused on production with exit 6 and nothing sent', async (argv) => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const r = await pgw([...argv, '-o', 'table'], {
      dispatcher: agent,
      env: { PGW_BASE_URL: 'https://api-pacb.eximpe.com', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('PRODUCTION');
    agent.assertNoPendingInterceptors();
  });
});
