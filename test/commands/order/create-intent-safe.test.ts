// vendor N7's expires_at and test_simulator_url come from the gateway: on a terminal (and in a
// piped table) they arrive without escape sequences and cannot start rows of their own, and a
// simulator address that is not http(s) is not offered as the next step.
import { describe, expect, it } from 'vitest';
import { orderFlags, useMock, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const mock = useMock(ws);

const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u001b]52;c;Y2xpcA==\u0007';
const CONTROL = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;
const intentFlags = () => ['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'upi', '--upi-flow', 'intent'];

function replyIntent(data: Record<string, unknown>) {
  mock.reply('POST', '/pg/orders/', 201, { success: true, message: 'S2S UPI request created', data: { order_id: 'OD1000000001', intent_uri: 'upi://pay?pa=m@x&am=1500.00', ...data } });
}

describe('order create: the intent fields of vendor N7, terminal-safe', () => {
  it('escape sequences and newlines in expires_at and test_simulator_url never reach the terminal or fake a row', async () => {
    replyIntent({ expires_at: `2026-11-21T10:05:00Z${ESCAPES}`, test_simulator_url: `https://gw.test/sim/1/\nstatus  paid${ESCAPES}` });
    const r = await mock.pgw([...intentFlags(), '-o', 'table'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stdout).toMatch(/^expires_at\s+2026-11-21T10:05:00Z$/m);
    expect(r.stdout).toMatch(/^simulator\s+https:\/\/gw\.test\/sim\/1\/ status  paid$/m);
    expect(r.stdout).not.toMatch(/^status/m);
  });

  it('piped, the table is one row per field too', async () => {
    replyIntent({ expires_at: '2026-11-21T10:05:00Z', test_simulator_url: 'https://gw.test/sim/1/\r\nstatus\tpaid' });
    const r = await mock.pgw([...intentFlags(), '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^status/m);
    expect(r.stdout).toMatch(/^simulator\s+https:\/\/gw\.test\/sim\/1\/ status paid$/m);
  });

  it('a simulator address that is not http(s) is shown, but the next step does not send the person there', async () => {
    replyIntent({ expires_at: '2026-11-21T10:05:00Z', test_simulator_url: 'javascript:alert(1)' });
    const r = await mock.pgw([...intentFlags(), '-o', 'table'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/simulator page/);
    expect(r.stderr).toMatch(/next: scan the QR code, or pay it here: pgw sandbox pay OD1000000001/);
  });
});
