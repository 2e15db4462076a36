// Issue 45: the forwarding rule as a pure function (store/forwarding.ts) and the addresses it
// compares (local-address.ts), by table. The sandbox and pgw listen through the CLI are tested in
// test/commands/listen/forwarding-table.test.ts and test/e2e/listen-exactly-once.test.ts.
import { describe, expect, it } from 'vitest';
import { forwardDecisions, onePerAddress, type Target } from '../../src/sandbox/store/forwarding.js';
import { addressKey, isOnLocalPort, sameAddress } from '../../src/local-address.js';
import { forwardHeaderValue, parseForwardHeader } from '../../src/events.js';
import { ForwardTally } from '../../src/commands/listen/tally.js';

const APP = 'http://127.0.0.1:3000/hooks';
let seq = 0;
const address = (id: string, url = APP): Target => ({ id, url, listener: false, forward_to: null, events: null, seq: ++seq });
const listener = (id: string, forwardTo: string | null = APP, events: string | null = null): Target => ({
  id,
  url: `http://127.0.0.1:4${id.slice(-3)}/pgw-listen/${id}/`,
  listener: true,
  forward_to: forwardTo,
  events,
  seq: ++seq,
});

describe('forwardDecisions: which listener forwards an event to its address', () => {
  it.each([
    ['one listener, the address registered nowhere', () => [listener('WH0000000001')], { WH0000000001: 'yes' }],
    ['the address registered (another spelling)', () => [address('WH0000000009', 'http://localhost:3000/hooks'), listener('WH0000000001')], { WH0000000001: 'address WH0000000009' }],
    ['another address registered: forwarded', () => [address('WH0000000009', 'http://127.0.0.1:3000/other'), listener('WH0000000001')], { WH0000000001: 'yes' }],
    ['two listeners to one address: the first registered', () => [listener('WH0000000001'), listener('WH0000000002')], { WH0000000001: 'yes', WH0000000002: 'listener WH0000000001' }],
    ['two listeners, the first not showing the type', () => [listener('WH0000000001', APP, 'PAYMENT_SETTLED'), listener('WH0000000002')], { WH0000000001: 'listener WH0000000002', WH0000000002: 'yes' }],
    ['two listeners to two addresses', () => [listener('WH0000000001'), listener('WH0000000002', 'http://127.0.0.1:3001/')], { WH0000000001: 'yes', WH0000000002: 'yes' }],
    ['a listener that forwards nothing', () => [listener('WH0000000001', null)], {}],
  ])('%s', (_name, targets, want) => {
    const got = forwardDecisions(targets(), 'PAYMENT_SUCCESSFUL');
    const byId = Object.fromEntries([...got].map(([url, d]) => [/pgw-listen\/(WH[0-9]+)\//.exec(url)![1], d]));
    expect(byId).toEqual(want);
  });

  it('onePerAddress: each address once, the registration made first, a listener if any is', () => {
    const rows = [
      { ...address('WH0000000002', 'http://localhost:3000/hooks'), listener: 0, seq: 2 },
      { ...address('WH0000000001'), listener: 0, seq: 1 },
      { ...address('WH0000000003', 'http://127.0.0.1:3000/other'), listener: 0, seq: 3 },
    ];
    expect(onePerAddress(rows).map((t) => [t.id, t.url])).toEqual([
      ['WH0000000001', APP],
      ['WH0000000003', 'http://127.0.0.1:3000/other'],
    ]);
  });

  it('the decision travels as a header and is read back; anything else is forwarded', () => {
    expect(forwardHeaderValue('yes')).toBe('yes');
    expect(forwardHeaderValue('address WH0000000009')).toBe('no; address=WH0000000009');
    expect(parseForwardHeader('no; listener=WH0000000001')).toEqual({ forward: false, kind: 'listener', by: 'WH0000000001' });
    expect(parseForwardHeader('yes')).toEqual({ forward: true });
    for (const v of [undefined, 'no', 'no; other=WH1', 'maybe']) expect(parseForwardHeader(v)).toBeUndefined();
  });
});

describe('addresses on this machine', () => {
  it.each(['http://localhost:8765/', 'http://LOCALHOST.:8765/x', 'http://127.1:8765', 'http://2130706433:8765/', 'http://0x7f.0.0.1:8765/', 'http://[::1]:8765/', 'http://[0:0:0:0:0:0:0:1]:8765/', 'http://[::ffff:127.0.0.1]:8765/', 'http://0.0.0.0:8765/', 'http://app.localhost:8765/'])(
    '%s is on local port 8765',
    (url) => expect(isOnLocalPort(url, 8765)).toBe(true),
  );
  it.each([['http://localhost:8766/'], ['http://10.0.0.1:8765/'], ['http://example.com:8765/'], ['http://localhost/'], ['not a url']])('%s is not', (url) => expect(isOnLocalPort(url, 8765)).toBe(false));
  it('a default port counts', () => expect(isOnLocalPort('http://localhost/', 80)).toBe(true));
  it('same address: host spellings of this machine fold, path and query do not', () => {
    expect(sameAddress('http://localhost:3000/hooks', 'http://127.0.0.1:3000/hooks')).toBe(true);
    expect(sameAddress('http://localhost:3000/hooks', 'http://localhost:3000/hooks?x=1')).toBe(false);
    expect(sameAddress('http://localhost:3000/hooks', 'https://localhost:3000/hooks')).toBe(false);
    expect(addressKey('http://example.com/a')).toBe('http://example.com:80/a');
  });
});

describe("the stop's tally", () => {
  it('counts, names what could not be forwarded (at most 20), and what was on the wire or waiting at the cut', () => {
    const t = new ForwardTally();
    const ok = t.acknowledged('EV1');
    t.sending(ok);
    t.forwarded(ok, { ok: true, status: 200, ms: 3 });
    t.elsewhere(t.acknowledged('EV2'));
    t.forwarded(t.acknowledged('EV3'), { ok: true, status: 503, ms: 3 });
    for (let i = 0; i < 20; i++) t.forwarded(t.acknowledged(`EVF${i}`), { ok: false, error: 'connection refused', ms: 1 });
    const wire = t.acknowledged('EV4');
    t.sending(wire);
    t.acknowledged('EV5');
    t.cutOff("the stop's 5000 ms (--timeout)");
    const lines = t.summary('http://app/', true);
    expect(lines[0]).toBe('forwarded 1 event to http://app/ (1 more reached it without this listener); 23 could not be (pgw events resend <id> sends one again):');
    expect(lines[1]).toBe('  EV3  answered HTTP 503');
    expect(lines.at(-1)).toBe('  and 3 more');
    expect(lines).toHaveLength(22);
    const cut = new ForwardTally();
    cut.sending(cut.acknowledged('EV4'));
    cut.acknowledged('EV5');
    cut.cutOff("the stop's 1000 ms (--timeout)");
    expect(cut.summary('http://app/', false)).toEqual([
      'forwarded 0 events to http://app/; 2 could not be:',
      "  EV4  sent, but not answered within the stop's 1000 ms (--timeout)",
      "  EV5  not sent: the stop's 1000 ms (--timeout) ran out first",
    ]);
  });
});
