// Shared by the profile command tests: a config dir per test and a marker secret to hunt for.
import { afterEach, beforeEach, expect } from 'vitest';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from '../../helpers/run.js';

export const SECRET = 'sk_marker_9f8e7d6c5b4a';
export const LAST4 = '••••5b4a';

export function useConfigDir(): { readonly dir: string; pgw: (argv: string[], opts?: RunOptions) => Promise<RunResult> } {
  const state = { dir: '', cleanup: () => {} };
  beforeEach(() => {
    const t = tempConfigDir();
    state.dir = t.dir;
    state.cleanup = t.cleanup;
  });
  afterEach(() => state.cleanup());
  return {
    get dir() {
      return state.dir;
    },
    pgw: async (argv, opts = {}) => {
      const result = await runCli(argv, { ...opts, env: { PGW_CONFIG_DIR: state.dir, ...opts.env } });
      // The contract's first rule for secrets, checked on every run of every profile test.
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
      expect(result.stdout + result.stderr).not.toContain('sk_marker');
      return result;
    },
  };
}

/** Add a sandbox profile non-interactively, with the marker secret on stdin. */
export async function addProfile(
  pgw: (argv: string[], opts?: RunOptions) => Promise<RunResult>,
  name: string,
  extra: string[] = [],
): Promise<void> {
  const r = await pgw(['profile', 'add', name, '--client-id', `cid_${name}`, '--client-secret-stdin', ...extra], { input: `${SECRET}\n` });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}
