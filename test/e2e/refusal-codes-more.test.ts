// Error codes the sandbox produces that only the random model test reached before (the parity
// report counts tests that run the same way everywhere: docs/parity.md): each through the command
// line (in-process) on the embedded sandbox, with the code a script reads in the JSON error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-codes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pgw = (...args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
async function value(...args: string[]): Promise<string> {
  const r = await pgw(...args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}
const errorCode = (stderr: string): unknown => (JSON.parse(stderr) as { error: { code: unknown } }).error.code;

describe('refusals that name their code', () => {
  it('a chargeback on a payment that failed: 400 ERR_CHARGEBACK_001, nothing made', async () => {
    const sub = await value('sandbox', 'subscription', 'create', '--amount', '100', '--query', 'uid');
    const failed = await value('sub', 'simulate', sub, '--status', 'FAILED', '--query', 'payment_id');
    const r = await pgw('sandbox', 'chargeback', failed, '--amount', '10', '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorCode(r.stderr)).toBe('ERR_CHARGEBACK_001');
    expect(await value('payment', 'get', failed, '--query', 'length(chargeback || `[]`)')).toBe('0');
  });

  it('a fault answering 504 on a POST: ERR_GATEWAY_TIMEOUT, exit 1, never retried', async () => {
    await value('sandbox', 'fault', 'add', '--route', 'POST /sandbox/subscriptions/', '--status', '504', '--times', '1', '--query', 'id');
    const r = await pgw('sandbox', 'subscription', 'create', '--amount', '100', '--json');
    expect(r.code).toBe(1);
    expect(errorCode(r.stderr)).toBe('ERR_GATEWAY_TIMEOUT');
    // The fault fired once: the next create goes through.
    expect(await value('sandbox', 'subscription', 'create', '--amount', '100', '--query', 'uid')).not.toBe('');
  });
});
