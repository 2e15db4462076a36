// Snapshots through the binary (issue 24 "Done when"): a snapshot taken while 4 processes write
// restores exactly the rows committed before it (whole transactions, a prefix of each writer's
// commits, integrity_check ok); a restore under a concurrent reader never shows a mix.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnPgw, ROOT } from '../helpers/spawn.js';
import { openRaw, pragmaValue } from '../helpers/sqlite.js';
import { startHarness } from '../sandbox/harness.js';
import { openStore } from '../../src/sandbox/store.js';

let writerFile: string;
let dir: string;

beforeAll(async () => {
  const out = join(ROOT, '.vitest-tmp');
  mkdirSync(out, { recursive: true });
  writerFile = join(out, `snapshot-writer-${process.pid}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'test/sandbox/fixtures/snapshot-writer.ts')],
    outfile: writerFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  dir = mkdtempSync(join(tmpdir(), 'pgw-snapshots-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(writerFile, { force: true });
});

interface Writer {
  tag: string;
  child: ChildProcessWithoutNullStreams;
  /** References committed, in order, as this process has read them so far. */
  committed: string[];
  exited: Promise<number | null>;
  stderr: string;
}

function startWriter(dbPath: string, tag: string, stopFile: string): Writer {
  const child = spawn(process.execPath, [writerFile, dbPath, tag, stopFile], { env: { ...process.env } });
  const w: Writer = { tag, child, committed: [], exited: new Promise((resolve) => child.on('close', resolve)), stderr: '' };
  let buffer = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) w.committed.push(line.split(' ')[0]!);
  });
  child.stderr.on('data', (d: Buffer) => (w.stderr += d.toString()));
  return w;
}

/** Resolves once every writer has read at least `n` more commits than `from` says. */
async function untilEach(writers: Writer[], from: number[], n: number): Promise<void> {
  // Well inside the test's own timeout, so a writer that stalls is named with what it printed.
  const deadline = Date.now() + 45_000;
  while (writers.some((w, i) => w.committed.length < from[i]! + n)) {
    if (Date.now() > deadline) {
      const stalled = writers.filter((w, i) => w.committed.length < from[i]! + n);
      throw new Error(`writers stalled: ${stalled.map((w) => `${w.tag} at ${w.committed.length} commits, stderr: ${w.stderr || '(none)'}`).join('; ')}`);
    }
    // Ended by a signal, a child has no exit code: check both, or a crash waits out the timeout.
    const early = writers.find((w) => w.child.exitCode !== null || w.child.signalCode !== null);
    if (early) throw new Error(`writer ${early.tag} stopped early (${early.child.exitCode ?? early.child.signalCode}): ${early.stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits for the writers to see the stop file; one still running after 20 s is killed, so a failed
 * run never leaves writers behind (two once ran on for 40 minutes after a timeout, their folder
 * gone, so no stop file could ever appear).
 */
async function stopped(writers: Writer[]): Promise<void> {
  const all = Promise.all(writers.map((w) => w.exited));
  const late = await Promise.race([all.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 20_000).unref())]);
  if (late) for (const w of writers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await all;
}

function rows(path: string): { refs: string[]; torn: number } {
  const db = openRaw(path);
  try {
    const refs = (db.prepare("SELECT reference_id AS r FROM orders WHERE reference_id LIKE 'w_-%' ORDER BY reference_id").all() as { r: string }[]).map((x) => x.r);
    const torn = (db.prepare("SELECT count(*) AS n FROM orders o WHERE reference_id LIKE 'w_-%' AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id AND p.status = 'captured')").get() as { n: number }).n;
    return { refs, torn };
  } finally {
    db.close();
  }
}

const NO_ENV = (configDir: string) => ({ env: { PGW_CONFIG_DIR: configDir } });

describe('snapshot save under 4 writing processes', () => {
  it('restores exactly the rows committed before it: whole transactions, a prefix of each writer, integrity ok', async () => {
    const base = join(dir, 'busy');
    mkdirSync(base, { recursive: true });
    const dbPath = join(base, 'sandbox.db');
    const stopFile = join(base, 'stop');
    openStore(dbPath).close(); // created and seeded once, before the writers race to open it

    const writers = ['w1', 'w2', 'w3', 'w4'].map((tag) => startWriter(dbPath, tag, stopFile));
    let before: string[][] = [];
    try {
      await untilEach(writers, [0, 0, 0, 0], 5);
      // Committed before the snapshot began: each of these must be in it.
      before = writers.map((w) => [...w.committed]);
      const saved = await spawnPgw(['sandbox', 'snapshot', 'save', 'mid', '--db', dbPath, '--json'], NO_ENV(base));
      expect(saved.code, saved.stderr).toBe(0);
      // Writing goes on after it.
      await untilEach(writers, writers.map((w) => w.committed.length), 5);
    } finally {
      writeFileSync(stopFile, '');
      await stopped(writers);
    }
    for (const w of writers) expect(w.child.exitCode, w.stderr).toBe(0);
    const everything = rows(dbPath).refs;
    expect(everything.length).toBe(writers.reduce((n, w) => n + w.committed.length, 0));

    const restored = await spawnPgw(['sandbox', 'snapshot', 'restore', 'mid', '--db', dbPath, '--yes', '--json'], NO_ENV(base));
    expect(restored.code, restored.stderr).toBe(0);
    const after = rows(dbPath);
    const inSnapshot = rows(join(base, 'sandbox.db-snapshots', 'mid.db'));
    // Exactly the snapshot's rows, each a whole transaction (an order never without its payment).
    expect(after.refs).toEqual(inSnapshot.refs);
    expect(after.torn).toBe(0);
    expect(after.refs.length).toBeLessThan(everything.length);
    for (const w of writers) {
      const mine = after.refs.filter((r) => r.startsWith(`${w.tag}-`));
      // A prefix of what this writer committed, in order, holding all it had committed before.
      expect(mine).toEqual(w.committed.slice(0, mine.length));
      expect(mine.length).toBeGreaterThanOrEqual(before[writers.indexOf(w)]!.length);
      expect(mine.length).toBeLessThan(w.committed.length);
    }
    const db = openRaw(dbPath);
    try {
      expect(pragmaValue(db, 'integrity_check')).toBe('ok');
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);
});

describe('restore under a concurrent reader', () => {
  it('a reader sees the old state or the new one, never a mix or an empty middle', async () => {
    const base = join(dir, 'reader');
    mkdirSync(base, { recursive: true });
    const h = await startHarness({ dbPath: join(base, 'sandbox.db') });
    try {
      const state = async (prefix: string, n: number) => {
        for (const hook of (await h.call('GET', '/sandbox/webhooks/')).body.data) await h.call('DELETE', `/sandbox/webhooks/${hook.id}/`);
        for (let i = 1; i <= n; i++) expect((await h.call('POST', '/sandbox/webhooks/', { body: { url: `http://127.0.0.1:9/${prefix}${i}` } })).status).toBe(200);
        const saved = await spawnPgw(['sandbox', 'snapshot', 'save', prefix, '--db', h.dbPath, '--json'], NO_ENV(base));
        expect(saved.code, saved.stderr).toBe(0);
      };
      await state('a', 3);
      await state('b', 5);

      // The reader polls one list (one read transaction per answer) while other processes restore.
      const seen = new Set<string>();
      const mixes: string[] = [];
      let reading = true;
      const reader = (async () => {
        while (reading) {
          const r = await h.call('GET', '/sandbox/webhooks/');
          const urls: string[] = r.body.data.map((x: { url: string }) => x.url);
          const kinds = new Set(urls.map((u) => u.slice(u.lastIndexOf('/') + 1, u.lastIndexOf('/') + 2)));
          const ok = (kinds.size === 1 && kinds.has('a') && urls.length === 3) || (kinds.size === 1 && kinds.has('b') && urls.length === 5);
          if (ok) seen.add([...kinds][0]!);
          else mixes.push(JSON.stringify(urls));
        }
      })();
      try {
        for (const name of ['a', 'b', 'a', 'b', 'a', 'b']) {
          const r = await spawnPgw(['sandbox', 'snapshot', 'restore', name, '--db', h.dbPath, '--yes', '--json'], NO_ENV(base));
          expect(r.code, r.stderr).toBe(0);
        }
      } finally {
        reading = false;
        await reader;
      }
      expect(mixes).toEqual([]);
      expect([...seen].sort()).toEqual(['a', 'b']);
    } finally {
      await h.close();
    }
  }, 120_000);
});
