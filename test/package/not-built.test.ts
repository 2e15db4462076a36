// Issue 32: bin/pgw.js where dist/ was never built says in one line what to run, exit 1, and no
// stack trace (unless PGW_DEBUG=1). The layouts are copies of bin/ with and without the sources'
// marker (scripts/build.mjs): a checkout before `npm install`, and an install that lost dist/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

let base: string;

/** A folder with bin/ and package.json (ESM), plus scripts/build.mjs when `checkout`. */
function layout(name: string, checkout: boolean): string {
  const dir = join(base, name);
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pgw-cli', type: 'module' }));
  if (checkout) {
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts/build.mjs'), '');
  }
  return dir;
}

function pgw(dir: string, env: Record<string, string> = {}) {
  const clean: Record<string, string | undefined> = { ...process.env, ...env };
  for (const key of Object.keys(clean)) if ((key.startsWith('PGW_') && !key.startsWith('PGW_PARITY_')) && !(key in env)) delete clean[key];
  return spawnSync(process.execPath, [join(dir, 'bin/pgw.js'), 'sandbox', 'seed'], { cwd: dir, env: clean, encoding: 'utf8' });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'pgw-not-built-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('bin/pgw.js without dist/', () => {
  it('in a checkout: one line naming npm install, exit 1, no stack trace', () => {
    const r = pgw(layout('checkout', true));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: this checkout of pgw is not built .*run `npm install`/)]);
  });

  it('in an installed package: one line saying to install again', () => {
    const r = pgw(layout('installed', false));
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: this install of pgw has no dist\/main\.js: install pgw-cli again$/)]);
  });

  it('with PGW_DEBUG=1, the loader\'s stack follows the line', () => {
    const r = pgw(layout('debug', true), { PGW_DEBUG: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: this checkout .*\n.*ERR_MODULE_NOT_FOUND[\s\S]*\n\s+at /);
  });

  it('any other failure to load dist/main.js is not called "not built"', () => {
    const dir = layout('broken', true);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/main.js'), "import './chunks/missing.js';\n");
    const r = pgw(dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).not.toMatch(/not built/);
    expect(r.stderr).toMatch(/missing\.js/);
  });
});
