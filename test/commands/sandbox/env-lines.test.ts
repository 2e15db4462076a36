// `pgw sandbox env` output is eval'd by a shell (or appended to $GITHUB_ENV): a value with a
// quote, a dollar or a backslash in it must come out as itself, never as shell code (issue 32).
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { envLines } from '../../../src/commands/sandbox/env-lines.js';
import { OutputGuard } from '../../../src/output/guard.js';

const nasty = `it's $(touch /tmp/pwned) \`x\` \\ "q" $HOME`;

describe('envLines', () => {
  it('sh: export K=\'v\', a quote closed, escaped and reopened; bash reads the value back unchanged', () => {
    const text = envLines('sh', [['PGW_X', nasty]]);
    expect(text).toBe(`export PGW_X='it'\\''s $(touch /tmp/pwned) \`x\` \\ "q" $HOME'\n`);
    const out = execFileSync('bash', ['-c', `${text}printf %s "$PGW_X"`], { encoding: 'utf8' });
    expect(out).toBe(nasty);
  });

  it('fish: set -gx K \'v\' with \\ and \' escaped', () => {
    expect(envLines('fish', [['PGW_X', nasty]])).toBe(`set -gx PGW_X 'it\\'s $(touch /tmp/pwned) \`x\` \\\\ "q" $HOME'\n`);
    const fish = spawnSync('fish', ['--version']);
    if (fish.status === 0) {
      const out = execFileSync('fish', ['-c', `${envLines('fish', [['PGW_X', nasty]])}printf %s "$PGW_X"`], { encoding: 'utf8' });
      expect(out).toBe(nasty);
    }
  });

  it('github: K=v lines as $GITHUB_ENV takes them; a value with a line break is refused', () => {
    expect(envLines('github', [['PGW_A', 'a b'], ['PGW_B', nasty]])).toBe(`PGW_A=a b\nPGW_B=${nasty}\n`);
    expect(() => envLines('github', [['PGW_A', 'a\nPGW_EVIL=1']])).toThrow(/line break|control/);
    expect(() => envLines('sh', [['PGW_A', 'a\rb']])).toThrow(/control/);
  });
});

describe('OutputGuard.releaseSandboxCredentials', () => {
  const secret = 'sbx_cs_AbCdEf0123456789_-xyzXYZ';
  const key = 'sbx_ek_0123456789abcdef0123456789abcdef0123456789abcdef';

  it('lets a pgw sandbox secret through in these lines only, even one the run knows as a secret', () => {
    const guard = new OutputGuard();
    guard.addSecret(secret); // PGW_CLIENT_SECRET already in the environment (a second eval)
    guard.addSecret(key);
    const text = `export PGW_CLIENT_SECRET='${secret}'\nexport PGW_ENCRYPTION_KEY='${key}'\n`;
    expect(guard.releaseSandboxCredentials(text, [secret, key])).toBe(text);
    // Anything else still goes through the guard: the same text elsewhere is masked.
    expect(guard.text(text)).not.toContain(secret);
    expect(guard.text(text)).not.toContain(key);
  });

  it('keeps masking every other secret of the run in that text', () => {
    const guard = new OutputGuard();
    guard.addSecret('prod-secret-value-123');
    const out = guard.releaseSandboxCredentials(`export A='${secret}'\nexport B='prod-secret-value-123'\n`, [secret]);
    expect(out).toContain(secret);
    expect(out).not.toContain('prod-secret-value-123');
  });

  it('refuses a value that is not a pgw sandbox credential', () => {
    const guard = new OutputGuard();
    expect(() => guard.releaseSandboxCredentials("export A='prod-secret-value-123'\n", ['prod-secret-value-123'])).toThrow(/not a pgw sandbox credential/);
    expect(() => guard.releaseSandboxCredentials("export A='sbx_cs_x y'\n", ['sbx_cs_x y'])).toThrow(/not a pgw sandbox credential/);
  });
});
