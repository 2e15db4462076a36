// Issue 32: the SQLITE_UNAVAILABLE hint names a command that works where this pgw lives. Each
// command here was run by hand (the note): the global one on a tarball install on Node 20.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BETTER_SQLITE3, engineHint } from '../../src/sandbox/sqlite/engine-hint.js';
import { ROOT } from '../helpers/spawn.js';

describe('the engine hint', () => {
  it('a global install (<prefix>/lib/node_modules/pgw-cli): better-sqlite3 from the registry into that prefix', () => {
    const file = '/tmp/g20/lib/node_modules/pgw-cli/dist/chunks/open-ABC.js';
    expect(engineHint('missing', file)).toBe('use Node 22.13 or newer (node:sqlite is built in), or on Node 20 install it: npm install -g --prefix /tmp/g20 better-sqlite3@12');
    expect(engineHint('broken', file)).toBe('use Node 22.13 or newer (node:sqlite is built in), or on Node 20 install python3, make and g++, then run: npm rebuild -g --prefix /tmp/g20 better-sqlite3');
  });

  it('a project\'s node_modules: into that project', () => {
    expect(engineHint('missing', '/home/me/app/node_modules/pgw-cli/dist/main.js')).toMatch(/: npm install --prefix \/home\/me\/app better-sqlite3@12$/);
  });

  it('a checkout: npm install there (the optional carrier brings better-sqlite3 on Node 20), or rebuild it', () => {
    expect(engineHint('missing', '/work/pgw/dist/chunks/open-ABC.js')).toMatch(/install it: npm install --prefix \/work\/pgw$/);
    expect(engineHint('broken', '/work/pgw/src/sandbox/sqlite/select.ts')).toMatch(/then run: npm rebuild --prefix \/work\/pgw better-sqlite3$/);
  });

  it('quotes a path with spaces or quotes as one shell word', () => {
    expect(engineHint('missing', "/Users/Jo O'Neil/.npm-global/lib/node_modules/pgw-cli/dist/main.js")).toMatch(/--prefix '\/Users\/Jo O'\\''Neil\/\.npm-global' better/);
  });

  it('names the major version the Node 20 carrier depends on', () => {
    const carrier = JSON.parse(readFileSync(join(ROOT, 'packages/sqlite-node20/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const major = /^\^?(\d+)\./.exec(carrier.dependencies['better-sqlite3']!)?.[1];
    expect(BETTER_SQLITE3).toBe(`better-sqlite3@${major}`);
  });
});
