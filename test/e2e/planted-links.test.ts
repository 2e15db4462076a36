// Issue 31 item 8 (serve and the umask cases as processes, the rest in-process): files pgw creates
// are never written through a symbolic link someone planted, at the target's name or at the
// temporary name beside it, and they are owner-only whatever the umask. Every link here points into
// `outside`, a directory that must end each test as it began.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, type SpawnResult } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';
import { jsonl, merchantBody } from '../commands/merchant/helpers.js';

let root: string;
let dir: string;
let outside: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pgw-planted-'));
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
beforeEach(() => {
  dir = join(root, `t${++n}`);
  outside = join(dir, 'outside');
  mkdirSync(outside, { recursive: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;
const clean = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));

/** pgw as a child under `umask`, through sh (Node cannot give a child its own umask). */
function startUnder(umask: string, args: string[], env: Record<string, string>) {
  const child = spawn('sh', ['-c', `umask ${umask}; exec "$0" "$@"`, process.execPath, BIN, ...args], { cwd: ROOT, env: { ...clean(), NO_COLOR: '1', ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<SpawnResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err })));
  return { child, exited, err: () => err };
}

async function until(what: string, fn: () => boolean, proc: { child: ChildProcessWithoutNullStreams; err: () => string }): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (fn()) return;
    if (proc.child.exitCode !== null) throw new Error(`${what}: pgw exited (${proc.child.exitCode}): ${proc.err()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('sandbox serve --ready-file (it holds the demo accounts\u2019 credentials)', () => {
  it('a link planted at the temporary name the old code used (ready.<pid>.tmp) is never written through; the ready file is pgw\u2019s own, 0600', async () => {
    const ready = join(dir, 'ready');
    const theirs = join(outside, 'theirs.json');
    writeFileSync(theirs, 'untouched\n', { mode: 0o644 });
    // sh execs node, so the pid spawn reports is the pid that writes; the link is planted long
    // before node has started, opened the database and begun to listen.
    const serve = startUnder('022', ['sandbox', 'serve', '--port', '0', '--db', join(dir, 'served.db'), '--ready-file', ready, '--quiet', '--json'], { PGW_CONFIG_DIR: join(dir, 'cfg') });
    const planted = join(dir, `ready.${serve.child.pid}.tmp`);
    symlinkSync(theirs, planted);
    await until('the ready file', () => existsSync(ready), serve);
    expect(readFileSync(theirs, 'utf8')).toBe('untouched\n');
    expect(lstatSync(ready).isFile()).toBe(true); // not the planted link, renamed into place
    expect(mode(ready)).toBe(0o600);
    expect(JSON.parse(readFileSync(ready, 'utf8')).accounts.length).toBeGreaterThan(0);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
    expect(readdirSync(outside)).toEqual(['theirs.json']);
    expect(lstatSync(planted).isSymbolicLink()).toBe(true); // left alone, not renamed or followed
  }, 60_000);

  it('is 0600 under a umask that would leave it 0400 (the mode is set, not left to the umask)', async () => {
    const ready = join(dir, 'ready');
    const db = join(dir, 'db');
    mkdirSync(db, { mode: 0o700 });
    const serve = startUnder('277', ['sandbox', 'serve', '--port', '0', '--db', join(db, 'served.db'), '--ready-file', ready, '--quiet', '--json'], { PGW_CONFIG_DIR: join(dir, 'cfg') });
    await until('the ready file', () => existsSync(ready), serve);
    expect(mode(ready)).toBe(0o600);
    expect(mode(join(db, 'served.db'))).toBe(0o600);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
  }, 60_000);

  it('a ready file path that is a link (dangling) is exit 2, one line, nothing started or written', async () => {
    const ready = join(dir, 'ready');
    symlinkSync(join(outside, 'loot.json'), ready);
    const r = await pgwInProcess(['sandbox', 'serve', '--port', '0', '--db', join(dir, 'served.db'), '--ready-file', ready, '-o', 'table'], { env: { PGW_CONFIG_DIR: join(dir, 'cfg') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --ready-file: cannot write ${ready}: it is a symbolic link, and pgw never writes through one: name the file itself\n`);
    expect(r.stdout).toBe('');
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(dir, 'served.db'))).toBe(false);
  }, 30_000);
});

describe('merchant create --results / --resume', () => {
  const env = () => ({ PGW_CONFIG_DIR: join(dir, 'cfg'), PGW_PROFILE: 'local-psp' });
  const input = (count: number) => {
    const path = join(dir, `m${count}.jsonl`);
    writeFileSync(path, jsonl(Array.from({ length: count }, (_, i) => merchantBody(`Planted ${n}-${i + 1}`))));
    return path;
  };
  const brands = async () => {
    const r = await pgwInProcess(['merchant', 'list', '--all', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { brand_name: string }[]).map((m) => m.brand_name).filter((b) => b.startsWith(`Planted ${n}-`));
  };

  it('a results path that is a dangling link is refused: exit 2, one line, nothing sent, nothing at the link\u2019s target', async () => {
    const res = join(dir, 'res.jsonl');
    const loot = join(outside, 'loot.jsonl');
    symlinkSync(loot, res);
    const r = await pgwInProcess(['merchant', 'create', '--file', input(2), '--results', res, '-o', 'table'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --results: cannot write ${res}: it is a symbolic link, and pgw never writes through one: name the file itself\n`);
    expect(existsSync(loot)).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
    expect(await brands()).toEqual([]);
  }, 60_000);

  it('a new results file is created 0600 under a umask that would leave it 0400', async () => {
    const res = join(dir, 'res.jsonl');
    const run = startUnder('277', ['merchant', 'create', '--file', input(1), '--results', res, '--json'], env());
    const r = await run.exited;
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(res).isFile()).toBe(true);
    expect(mode(res)).toBe(0o600);
  }, 60_000);

  it('--resume through a link is refused: exit 2, the file it points to is neither read as this run\u2019s nor appended to', async () => {
    const first = join(dir, 'first.jsonl');
    const file = input(3);
    const all = readFileSync(file, 'utf8');
    // An earlier run created merchants 1 and 2 (the input then held those two)...
    writeFileSync(file, `${all.split('\n').slice(0, 2).join('\n')}\n`);
    expect((await pgwInProcess(['merchant', 'create', '--file', file, '--results', first, '--json'], { env: env() })).code).toBe(0);
    // ...its records moved out of reach and linked back; the input has grown a third merchant.
    const real = join(outside, 'real.jsonl');
    renameSync(first, real);
    chmodSync(real, 0o644);
    const before = readFileSync(real, 'utf8');
    const link = join(dir, 'res.jsonl');
    symlinkSync(real, link);
    writeFileSync(file, all);
    const r = await pgwInProcess(['merchant', 'create', '--file', file, '--resume', link, '-o', 'table'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --resume: cannot read ${link}: it is a symbolic link, and pgw never writes through one: name the file itself\n`);
    expect(readFileSync(real, 'utf8')).toBe(before);
    expect(mode(real)).toBe(0o644);
    expect((await brands()).sort()).toEqual([`Planted ${n}-1`, `Planted ${n}-2`]);
  }, 60_000);
});

describe('the sandbox database', () => {
  it('a sandbox.db that is a link to nothing is refused: the database is not created where it points', async () => {
    const cfg = join(dir, 'cfg');
    mkdirSync(cfg, { mode: 0o700 });
    const loot = join(outside, 'loot.db');
    symlinkSync(loot, join(cfg, 'sandbox.db'));
    const r = await pgwInProcess(['payment', 'list', '-o', 'table'], { env: { PGW_CONFIG_DIR: cfg } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${join(cfg, 'sandbox.db')} is a symbolic link to a file that does not exist`);
    expect(readdirSync(outside)).toEqual([]);

    const served = join(dir, 'served.db');
    symlinkSync(loot, served);
    const s = await pgwInProcess(['sandbox', 'serve', '--port', '0', '--db', served, '-o', 'table'], { env: { PGW_CONFIG_DIR: cfg } });
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/^error: --db: .* is a symbolic link to a file that does not exist: pgw creates a database under its own name, never through a link\n$/);
    expect(readdirSync(outside)).toEqual([]);
  }, 60_000);
});
