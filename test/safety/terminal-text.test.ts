// Issue 13 item 11: escape sequences in a gateway's message, in its data, or in an ID from argv or
// --from-file never reach a terminal raw (contract, "Output rules"). Colour pgw adds itself stays.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { terminalSafe } from '../../src/safety/terminal-text.js';
import { useGatewayStub } from '../helpers/gateway-stub.js';

const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u001b]52;c;Y2xpcA==\u0007';
const CONTROL = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;

describe('terminalSafe', () => {
  it('drops OSC, CSI other than colour, C1 controls and bells; keeps newlines, tabs and (when asked) colour', () => {
    expect(terminalSafe(`a${ESCAPES}b\tc\n\u001b[32mgreen\u001b[39m\r`, true)).toBe('ab\tc\n\u001b[32mgreen\u001b[39m');
    expect(terminalSafe('\u001b[32mgreen\u001b[39m', false)).toBe('green');
  });
});

describe('on a terminal', () => {
  const gw = useGatewayStub({ secret: 'sk_term_secret_000' });

  it("a gateway's error message and its details arrive without their escape sequences", async () => {
    gw.pool.intercept({ path: '/pg/payments/PR1000000001/', method: 'GET' }).reply(400, JSON.stringify({ success: false, error: { code: 'ERR_X', message: `bad${ESCAPES} request`, details: { why: `x${ESCAPES}` } } }), { headers: { 'content-type': 'application/json' } });
    const r = await gw.pgw(['payment', 'get', 'PR1000000001'], { tty: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad request');
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it('a success whose strings carry escape sequences is drawn without them; --query prints a string raw but safe', async () => {
    const data = { payment_id: 'PR1000000001', status: `captured${ESCAPES}`, amount: '10.00', currency: 'INR', order: { buyer: { name: `Asha${ESCAPES}` } } };
    for (let i = 0; i < 2; i++) gw.pool.intercept({ path: '/pg/payments/PR1000000001/', method: 'GET' }).reply(200, JSON.stringify({ success: true, message: 'ok', data }), { headers: { 'content-type': 'application/json' } });
    const table = await gw.pgw(['payment', 'get', 'PR1000000001'], { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toMatch(CONTROL);
    const query = await gw.pgw(['payment', 'get', 'PR1000000001', '--query', 'status'], { tty: true });
    expect(query.stdout).toBe('captured\n');
  });

  it("with colour on, a gateway's own colour codes are dropped and pgw's stay", async () => {
    const data = { payment_id: 'PR1000000001', status: 'captured', amount: '10.00', currency: 'INR', order: { buyer: { name: 'Asha\u001b[8m hidden\u001b[0m' } } };
    gw.pool.intercept({ path: '/pg/payments/PR1000000001/', method: 'GET' }).reply(200, JSON.stringify({ success: true, message: 'ok', data }), { headers: { 'content-type': 'application/json' } });
    const r = await gw.pgw(['payment', 'get', 'PR1000000001'], { tty: true, env: { NO_COLOR: '' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\u001b[32mcaptured'); // pgw's green
    expect(r.stdout).not.toContain('\u001b[8m');
    expect(r.stdout).toContain('Asha hidden');
  });

  it('an ID with escape sequences from argv or --from-file is refused (exit 2) without them', async () => {
    const list = join(gw.dir, 'ids.txt');
    writeFileSync(list, `PR1${ESCAPES}\n`);
    for (const args of [['payment', 'get', `PR1${ESCAPES}`], ['payment', 'get', '--from-file', list]]) {
      const r = await gw.pgw(args, { tty: true });
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(CONTROL);
    }
  });
});
