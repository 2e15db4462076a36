// Issue 31 item 7 (the commands run in-process): a signed event with a duplicate key put in front
// (`{"event_type":"FORGED_EVENT", ...the signed keys...}`) re-serialises, last value winning, to
// the signed bytes; `pgw webhook verify` refuses it (exit 1, saying why) instead of exit 0 by the
// sorted-keys fallback. The raw body and an honest re-indented copy still verify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
let body: string;
let sig: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-dupkey-'));
  const made = JSON.parse((await pgw(['trigger', 'PAYMENT_SUCCESSFUL', '--json'])).stdout) as { events: { id: string }[] };
  body = JSON.parse((await pgw(['events', 'get', made.events[0]!.id, '--json'])).stdout).body as string;
  const key = (await pgw(['listen', '--print-key'])).stdout.trim();
  sig = createHmac('sha256', key).update(body).digest('hex');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pgw(args: string[]) {
  return pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
}
function verify(text: string, output: string[] = ['-o', 'table']) {
  const file = join(dir, 'body.json');
  writeFileSync(file, text);
  return pgw(['webhook', 'verify', '--file', file, '--signature', sig, ...output]);
}

describe('pgw webhook verify: a body with a duplicate key', () => {
  it('the raw body, and the same JSON re-indented, verify (exit 0)', async () => {
    expect((await verify(body)).code).toBe(0);
    const reindented = await verify(JSON.stringify(JSON.parse(body), null, 2), ['--json']);
    expect(reindented.code, reindented.stderr).toBe(0);
    expect(JSON.parse(reindented.stdout).matched).toBe('sorted keys');
  });

  it.each([
    ['a forged event_type put in front', (b: string) => `{"event_type":"FORGED_EVENT",${b.slice(1)}`, /duplicate key "event_type", so the sorted-keys check is refused/],
    ['the same key written with an escape', (b: string) => `{"event\\u005ftype":"FORGED_EVENT",${b.slice(1)}`, /duplicate key "event_type", so/],
    ['a forged amount inside data', (b: string) => b.replace('"data":{', '"data":{"amount":999999,'), /duplicate key "amount" \(in data\), so/],
  ])('%s: exit 1 with the reason, nothing on stdout', async (_name, forge, reason) => {
    const r = await verify(forge(body));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: signature does not match: /);
    expect(r.stderr).toMatch(reason);
  });

  it('in JSON mode the error carries SIGNATURE_MISMATCH and the reason', async () => {
    const r = await verify(`{"event_type":"FORGED_EVENT",${body.slice(1)}`, ['--json']);
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stderr).error as { code: string; message: string };
    expect(error.code).toBe('SIGNATURE_MISMATCH');
    expect(error.message).toMatch(/duplicate key "event_type"/);
  });
});
