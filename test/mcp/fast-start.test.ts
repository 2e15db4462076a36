// `pgw mcp` as agents start it skips the command tree; anything else goes through commander, so
// help, refusals and every other flag stay commander's.
import { describe, expect, it } from 'vitest';
import { fastMcp } from '../../src/mcp/fast-start.js';
import { canonicalJson } from '../../src/mcp/confirm.js';
import { runCli, tempConfigDir } from '../helpers/run.js';

describe('fastMcp', () => {
  it.each([
    [['mcp'], { options: {} }],
    [['-p', 'uat', 'mcp'], { profile: 'uat', options: {} }],
    [['mcp', '--profile=uat', '--toolsets', 'payments,refunds', '--read-only'], { profile: 'uat', options: { toolsets: 'payments,refunds', readOnly: true } }],
    [['mcp', '--toolsets=sandbox', '--allow-production'], { options: { toolsets: 'sandbox', allowProduction: true } }],
    [['-p', 'live', '--allow-production', 'mcp'], { profile: 'live', options: { allowProduction: true } }],
  ])('%j is served without the tree', (argv, expected) => {
    expect(fastMcp(argv)).toEqual(expected);
  });

  it.each([[['mcp', '--list']], [['mcp', '--help']], [['mcp', '-v']], [['mcp', 'extra']], [['--toolsets', 'x', 'mcp']], [['mcp', '--toolsets']], [['mcp', '-p', '--read-only']], [['payment', 'get']], [[]], [['mcp', 'mcp']], [['--base-url', 'http://x', 'mcp']]])('%j goes through commander', (argv) => {
    expect(fastMcp(argv)).toBeUndefined();
  });

  it("a wrong toolset: exit 2, one line naming the choices; serving, a plain line for the client's log", async () => {
    const tmp = tempConfigDir();
    const choices = '--toolsets: unknown toolset "bogus": choose from orders, payments, refunds, links, settlements, merchants, compliance, events, sandbox; or all, default';
    try {
      const fast = await runCli(['mcp', '--toolsets', 'payments,bogus'], { env: { PGW_CONFIG_DIR: tmp.dir }, input: '' });
      const tree = await runCli(['mcp', '--toolsets', 'payments,bogus', '--list'], { env: { PGW_CONFIG_DIR: tmp.dir } });
      for (const r of [fast, tree]) {
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
      }
      expect(fast.stderr).toBe(`pgw mcp: error: ${choices}\n`);
      expect(JSON.parse(tree.stderr).error).toEqual({ code: 'USAGE', message: choices, details: null, status: null });
    } finally {
      tmp.cleanup();
    }
  });
});

describe('canonicalJson (what a confirmation token is bound to)', () => {
  it('is the same for the same arguments in any key order, and differs for any other value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, 'x'] }, b: 1 }));
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ amount: 100 })).not.toBe(canonicalJson({ amount: '100' }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
