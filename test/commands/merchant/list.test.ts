// pgw merchant list against the sandbox (paging for real) and MockAgent (what is sent, gateway errors).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { merchantBody, useSandbox } from './helpers.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { nextPage } from '../../../src/commands/merchant/list.js';

const sb = useSandbox();

describe('merchant list against the sandbox', () => {
  beforeAll(async () => {
    // Two seeded sub-merchants plus ten: 12 in all, enough for several pages and a progress bar.
    for (let i = 1; i <= 10; i++) {
      const r = await sb.h.call('POST', '/partners/merchants/', { as: 'psp', body: merchantBody(`List ${String(i).padStart(2, '0')}`) });
      expect(r.status).toBe(201);
    }
  });

  it('prints a table of id, brand, KYC status and created', async () => {
    const r = await sb.pgw(['merchant', 'list', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/id\s.*brand\s.*kyc_status\s.*created/);
    expect(r.stdout).toContain('Demo Sub-merchant One');
    expect(r.stdout).toContain('APPROVED');
    expect(r.stdout).toContain('List 10');
    expect(r.stderr).toBe('');
  });

  it('colours the KYC status on a terminal only', async () => {
    const tty = await sb.pgw(['merchant', 'list'], { tty: true });
    expect(tty.stdout).toContain('\u001b[32mAPPROVED');
    expect(tty.stdout).toContain('\u001b[33mPENDING');
    const pipe = await sb.pgw(['merchant', 'list', '-o', 'table']);
    expect(pipe.stdout).not.toContain('\u001b[');
  });

  it('JSON is an array of the results, unchanged', async () => {
    const r = await sb.pgw(['merchant', 'list', '--json']);
    const items = JSON.parse(r.stdout);
    expect(Array.isArray(items)).toBe(true);
    expect(items).toHaveLength(12);
    expect(items[0]).toEqual({ id: expect.stringMatching(/^[0-9]+$/), brand_name: 'Demo Sub-merchant One', kyc_status: 'APPROVED', created_date: expect.any(String), created_at: expect.any(String) });
  });

  it('--page and --page-size pick one page; table mode says there is more', async () => {
    const r = await sb.pgw(['merchant', 'list', '--page', '2', '--page-size', '5', '--json']);
    expect(JSON.parse(r.stdout).map((m: any) => m.brand_name)).toEqual(['List 04', 'List 05', 'List 06', 'List 07', 'List 08']);
    const t = await sb.pgw(['merchant', 'list', '--page', '2', '--page-size', '5', '-o', 'table']);
    expect(t.stderr).toContain('page 2 of 3 (12 sub-merchants): next with --page 3, or all with --all');
    const beyond = await sb.pgw(['merchant', 'list', '--page', '9', '-o', 'table']);
    expect(beyond.code).toBe(0);
    expect(beyond.stdout).toBe('');
    expect(beyond.stderr).toContain('no sub-merchants on page 9');
  });

  it('--all follows every page (5 pages of 3 with --page-size 3) in order, no duplicates', async () => {
    const r = await sb.pgw(['merchant', 'list', '--all', '--page-size', '3', '--json']);
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout);
    expect(items).toEqual(await sb.subMerchants());
    expect(new Set(items.map((m: any) => m.id)).size).toBe(12);
    expect(r.stderr).toBe(''); // no progress bar when stderr is not a terminal
  });

  it('--all draws a progress bar on stderr in a terminal, never on stdout', async () => {
    const r = await sb.pgw(['merchant', 'list', '--all', '--page-size', '5'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('fetching sub-merchants [');
    expect(r.stderr).toContain('12/12');
    expect(r.stdout).not.toContain('fetching');
    expect(r.stdout).toContain('List 10');
  });

  it('bad paging flags are exit 2 before any request', async () => {
    for (const argv of [['--page', '0'], ['--page', 'x'], ['--page-size', '1001'], ['--page-size', '0'], ['--all', '--page', '2']]) {
      const r = await sb.pgw(['merchant', 'list', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});

describe('merchant list on the embedded profiles', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempConfigDir()));
  afterEach(() => tmp.cleanup());

  it('-p local-psp pages with --all although its next links name another port', async () => {
    const r = await runCli(['-p', 'local-psp', 'merchant', 'list', '--all', '--page-size', '1', '--json'], { env: { PGW_CONFIG_DIR: tmp.dir } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((m: any) => m.brand_name)).toEqual(['Demo Sub-merchant One', 'Demo Sub-merchant Two']);
  });

  it('-p local (a plain merchant) is refused by the gateway: exit 4 with a PSP hint', async () => {
    const r = await runCli(['-p', 'local', 'merchant', 'list', '-o', 'table'], { env: { PGW_CONFIG_DIR: tmp.dir } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('This endpoint is only accessible to PSP merchants (ERR_AUTH_003)');
    expect(r.stderr).toContain('hint: merchant commands need a PSP account: use a PSP profile (on the embedded sandbox: -p local-psp)');
  });
});

describe('merchant list against MockAgent', () => {
  const gw = useGatewayStub({ secret: 'sekret-list-0001' });
  const page = (n: number, next: string | null, ids: string[]) => ({
    success: true,
    message: 'ok',
    data: { count: 4, page: n, page_size: 2, next, previous: null, results: ids.map((id) => ({ id, brand_name: `B${id}`, kyc_status: 'PENDING', created_date: '2026-01-01T00:00:00.000000Z' })) },
  });

  it('sends page and page_size, the client pair only (no X-Merchant-ID even with -m), and follows next by its query', async () => {
    const seen: Record<string, string>[] = [];
    const pool = gw.pool;
    pool.intercept({ path: '/partners/merchants/?page=1&page_size=2', method: 'GET' }).reply((o) => {
      seen.push(o.headers as Record<string, string>);
      return { statusCode: 200, data: page(1, 'https://elsewhere.example/partners/merchants/?page=2&page_size=2', ['1', '2']) };
    });
    pool.intercept({ path: '/partners/merchants/?page=2&page_size=2', method: 'GET' }).reply(200, page(2, null, ['3', '4']));
    const r = await gw.pgw(['merchant', 'list', '--all', '--page-size', '2', '-m', '999', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((m: any) => m.id)).toEqual(['1', '2', '3', '4']);
    const headers = Object.fromEntries(Object.entries(seen[0]!).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers['x-client-id']).toBe('cid');
    expect(headers).not.toHaveProperty('x-merchant-id');
    expect(headers).not.toHaveProperty('x-api-version');
  });

  it('a gateway error is exit 1 with its message; JSON mode puts the error object on stderr', async () => {
    gw.pool.intercept({ path: '/partners/merchants/?page=1', method: 'GET' }).reply(400, {
      success: false,
      error: { code: 'ERR_PARTNER_001', message: 'Bad paging', details: { page: 'invalid' } },
    });
    const r = await gw.pgw(['merchant', 'list', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'ERR_PARTNER_001', status: 400 });
  });

  it('an empty page that still names a next page stops instead of looping', async () => {
    const pool = gw.pool;
    pool.intercept({ path: '/partners/merchants/?page=1', method: 'GET' }).reply(200, page(1, '/partners/merchants/?page=2', []));
    const r = await gw.pgw(['merchant', 'list', '--all', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('page 1 was empty but named a next page');
  });
});

describe('nextPage', () => {
  it.each([
    [null, 1, undefined],
    ['https://x.example/partners/merchants/?page=3&page_size=50', 2, { page: 3, pageSize: 50 }],
    ['/partners/merchants/?page=2', 1, { page: 2 }],
    ['https://x.example/partners/merchants/?page=1', 1, { page: 2 }], // a next that does not advance
    ['not a url at all ::', 4, { page: 5 }],
  ])('%s after page %i → %j', (next, current, want) => {
    expect(nextPage({ next }, current)).toEqual(want);
  });
});
