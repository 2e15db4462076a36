// The real binary: exit codes, and data on stdout with everything else on stderr.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnPgw } from '../helpers/spawn.js';

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('pgw binary', () => {
  it('--version prints the package version on stdout only', async () => {
    const r = await spawnPgw(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
    expect(r.stderr).toBe('');
  });

  // Issue 23: for a bug report, the Node line and the SQLite engine the sandbox runs on here.
  it('--version -v also says the Node line and the SQLite engine in use (text and JSON)', async () => {
    const wanted = typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') === 'object' ? 'node:sqlite' : 'better-sqlite3';
    const r = await spawnPgw(['--version', '-v']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(version);
    expect(lines[1]).toBe(`node: ${process.version} (${process.platform}-${process.arch})`);
    expect(lines[2]).toMatch(new RegExp(`^sqlite: ${wanted} \\(SQLite 3\\.\\d+\\.\\d+\\)$`));
    const j = await spawnPgw(['--verbose', '--version', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ version, node: process.version, platform: `${process.platform}-${process.arch}`, sqlite: { engine: wanted, version: expect.stringMatching(/^3\.\d+\.\d+$/) } });
  });

  it('--version -v names a SQLite engine that cannot load rather than failing', async () => {
    const r = await spawnPgw(['--version', '-v'], { env: { PGW_SQLITE_DRIVER: 'no-such-engine' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sqlite: none \(PGW_SQLITE_DRIVER=no-such-engine is not a SQLite engine pgw knows\)$/m);
  });

  it('--help states the precedence and the exit codes', async () => {
    const r = await spawnPgw(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('flag > environment variable > profile > built-in default');
    expect(r.stdout).toContain('--profile');
    expect(r.stdout).toContain('6 refused by a safety rail');
  });

  it('an unknown command is exit 2 with a suggestion on stderr and nothing on stdout', async () => {
    const r = await spawnPgw(['sandbx']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'sandbx'/);
    expect(r.stderr).toMatch(/Did you mean sandbox\?/);
  });

  it('an unknown flag is exit 2 with a suggestion', async () => {
    const r = await spawnPgw(['--verbsoe']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--verbsoe'/);
    expect(r.stderr).toMatch(/Did you mean --verbose\?/);
  });

  it('a group without its verb prints its help on stdout and exits 0, as gh does (issue 22 item 3), in JSON mode too', async () => {
    const r = await spawnPgw(['sandbox', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Usage: pgw sandbox');
    const json = await spawnPgw(['sandbox']);
    expect(json.code).toBe(0);
    expect(json.stdout).toContain('Usage: pgw sandbox');
  });

  it('never prints a stack trace for bad input', async () => {
    const r = await spawnPgw(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
