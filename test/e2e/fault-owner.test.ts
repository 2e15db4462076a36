// Issue 33 item 15, the commands run in-process: `sandbox fault add`, `list` and `clear` name the
// account whose requests meet the fault (merchant, profile, demo account, client_id), say when
// -m (X-Merchant-ID) would make a client think otherwise, and where the fault lives (the embedded
// database, the serve running on it, or the sandbox at a base URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgwInProcess } from '../helpers/in-process.js';
import { killServes, startServe } from '../helpers/serve-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-fault-owner-'));
});
afterAll(() => {
  killServes();
  rmSync(dir, { recursive: true, force: true });
});

const ROUTE = ['--route', 'POST /pg/orders/', '--status', '503'];
const ORDER = [
  '--amount', '250', '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Plan', '--goods', 'service', '--invoice-number', 'INV1',
];

describe('fault add, list and clear name the account', () => {
  it('on the embedded profiles: merchant, profile, demo account, client_id and the database', async () => {
    const configDir = join(dir, 'embedded');
    const pgw = (args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: configDir } });
    const added = await pgw(['sandbox', 'fault', 'add', ...ROUTE, '-o', 'table']);
    expect(added.code, added.stderr).toBe(0);
    const [fault] = JSON.parse((await pgw(['sandbox', 'fault', 'list', '--json'])).stdout) as { id: string; merchant_id: string }[];
    const clientId = /PGW_CLIENT_ID='([^']+)'/.exec((await pgw(['sandbox', 'env'])).stdout)![1]!;
    expect(added.stderr).toContain(`armed for merchant ${fault!.merchant_id} (profile local, demo merchant account)`);
    expect(added.stderr).toContain(`requests with its credentials (client_id ${clientId}) fail`);
    expect(added.stderr).toContain(`stored in ${join(configDir, 'sandbox.db')}`);
    expect(added.stderr).toContain('a pgw sandbox serve without --db applies it too');
    expect(added.stderr).toContain(`remove it with: pgw sandbox fault clear ${fault!.id}`);
    expect(added.stderr).not.toContain('the account in use');

    const listed = await pgw(['sandbox', 'fault', 'list', '-o', 'table']);
    expect(listed.stderr).toContain(`faults of merchant ${fault!.merchant_id} (profile local, demo merchant account)`);
    const cleared = await pgw(['sandbox', 'fault', 'clear', '-o', 'table']);
    expect(cleared.stderr).toContain(`cleared 1 fault of merchant ${fault!.merchant_id} (profile local, demo merchant account)`);
    const again = await pgw(['sandbox', 'fault', 'clear', '-o', 'table']);
    expect(again.stderr).toContain(`no faults were armed for merchant ${fault!.merchant_id} (profile local, demo merchant account): nothing cleared`);
    const empty = await pgw(['sandbox', 'fault', 'list', '-o', 'table']);
    expect(empty.stderr).toContain(`no faults armed for merchant ${fault!.merchant_id} (profile local, demo merchant account)`);
  }, 60_000);

  it('the PSP acting for a sub-merchant (-m): the fault stays the PSP\'s, and the lines say whose requests meet it', async () => {
    const configDir = join(dir, 'psp');
    const pgw = (args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: configDir } });
    const sub = (JSON.parse((await pgw(['-p', 'local-psp', 'merchant', 'list', '--json'])).stdout) as { id: string }[])[0]!.id;
    const plain = await pgw(['-p', 'local-psp', 'sandbox', 'fault', 'add', ...ROUTE, '-o', 'table']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/armed for merchant \d+ \(profile local-psp, demo PSP account\)/);
    expect(plain.stderr).toContain("a sub-merchant's own credentials do not meet it; the PSP's with -m do");
    const acting = await pgw(['-p', 'local-psp', '-m', sub, 'sandbox', 'fault', 'add', ...ROUTE, '-o', 'table']);
    expect(acting.code, acting.stderr).toBe(0);
    const psp = /armed for merchant (\d+)/.exec(acting.stderr)![1];
    expect(psp).not.toBe(sub);
    expect(acting.stderr).toContain(`note: -m ${sub} (X-Merchant-ID) does not move it`);
    expect(acting.stderr).toContain(`acting for ${sub} fail; ${sub}'s own credentials do not`);
    // And it is so: the PSP acting for the sub-merchant meets the fault.
    const order = await pgw(['-p', 'local-psp', '-m', sub, 'order', 'create', ...ORDER, '--json']);
    expect(order.code).not.toBe(0);
    expect(order.stderr).toContain('ERR_SERVICE_UNAVAILABLE');
    const faults = JSON.parse((await pgw(['-p', 'local-psp', '-m', sub, 'sandbox', 'fault', 'list', '--json'])).stdout) as { merchant_id: string }[];
    expect(faults.every((f) => f.merchant_id === psp)).toBe(true);
  }, 60_000);

  it('with a serve running on the database, and through that serve: the lines name it', async () => {
    const configDir = join(dir, 'served');
    const pgw = (args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: configDir } });
    const s = await startServe(configDir, '0');
    try {
      const embedded = await pgw(['sandbox', 'fault', 'add', ...ROUTE, '-o', 'table']);
      expect(embedded.code, embedded.stderr).toBe(0);
      expect(embedded.stderr).toContain(`(the database of the serve at ${s.baseUrl}: it applies there too)`);
      const through = await pgw(['--base-url', s.baseUrl, 'sandbox', 'fault', 'add', ...ROUTE, '-o', 'table']);
      expect(through.code, through.stderr).toBe(0);
      expect(through.stderr).toContain(`stored in ${join(configDir, 'sandbox.db')}`);
      expect(through.stderr).toContain(`(the database of the serve at ${s.baseUrl}: it applies there too)`);
    } finally {
      await s.stop();
    }
  }, 60_000);

  it('a serve on another database (--db): the sandbox at its address is named, not the embedded file', async () => {
    const configDir = join(dir, 'other-db');
    const s = await startServe(configDir, '0', ['--db', join(dir, 'other.db')]);
    try {
      const merchant = s.accounts.find((a) => !a.psp)!;
      const r = await pgwInProcess(['sandbox', 'fault', 'add', ...ROUTE, '-o', 'table'], {
        env: { PGW_CONFIG_DIR: configDir, PGW_BASE_URL: s.baseUrl, PGW_CLIENT_ID: merchant.client_id, PGW_CLIENT_SECRET: merchant.client_secret },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`armed for merchant ${merchant.merchant_id} (profile local)`);
      expect(r.stderr).toContain(`stored in the sandbox at ${s.baseUrl}`);
      expect(r.stderr).not.toContain(join(configDir, 'sandbox.db'));
    } finally {
      await s.stop();
    }
  }, 60_000);
});
