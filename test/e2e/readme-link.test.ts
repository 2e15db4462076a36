// Issue 22 ("Also"): README's quick start puts pgw on the PATH with one command, since every
// `npx pgw` costs about a second before pgw starts. The command README gives is run here against a
// private prefix (never the machine's own), and pgw then runs by name from another directory.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

const hasNpm = spawnSync('sh', ['-c', 'command -v npm']).status === 0;

describe.runIf(hasNpm)('README: pgw on the PATH', () => {
  it('the checkout section gives npm link, and after it `pgw` runs by name', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Working on pgw'), readme.indexOf('\n## ', readme.indexOf('## Working on pgw') + 3));
    // `npm install` has built dist/ (its prepare script; issue 32): the link needs nothing more.
    expect([...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('')).toMatch(/^npm link$/m);
    const prefix = mkdtempSync(join(tmpdir(), 'pgw-link-'));
    try {
      execFileSync('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ROOT, env: { ...process.env, npm_config_prefix: prefix }, stdio: 'pipe' });
      const out = execFileSync('pgw', ['--version'], { cwd: tmpdir(), env: { ...process.env, PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}` }, encoding: 'utf8' });
      expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  }, 60_000);
});
