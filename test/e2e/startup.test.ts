// `pgw --version` and `pgw --help` must load none of the heavy dependencies (architecture.md,
// startup cost). Checked on the real bundle: a loader hook lists the chunks Node loads, and
// esbuild's metafile says which source files each chunk holds.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, spawnPgw } from '../helpers/spawn.js';

const HEAVY = /node_modules\/(undici|zod|conf|@inquirer)\//;
const hook = pathToFileURL(join(ROOT, 'test/helpers/trace-loads.mjs')).href;

let tmp: string;
let traces = 0;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pgw-startup-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function loadedSources(args: string[]): Promise<{ sources: string[]; code: number | null; builtins: string[] }> {
  const meta = JSON.parse(readFileSync(join(ROOT, 'build/meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  const trace = join(tmp, `trace-${args.join('-').replace(/[^a-z]/gi, '')}.txt`);
  const result = await spawnPgw(args, { nodeArgs: ['--import', hook], env: { PGW_TRACE_FILE: trace, PGW_CONFIG_DIR: tmp } });
  const urls = existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n') : [];
  const sources = new Set<string>();
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = relative(ROOT, fileURLToPath(url)).split('\\').join('/');
    const output = meta.outputs[file];
    if (output) for (const input of Object.keys(output.inputs)) sources.add(input);
    else sources.add(file);
  }
  return { sources: [...sources], code: result.code, builtins: urls.filter((u) => u.startsWith('node:')) };
}

/** The files of dist/ a command loads, in order; its exit code must be `code` (5: not found). */
async function distModules(args: string[], code = args.includes('get') ? 5 : 0): Promise<string[]> {
  const trace = join(tmp, `count-${(traces += 1)}.txt`);
  const result = await spawnPgw(args, { nodeArgs: ['--import', hook], env: { PGW_TRACE_FILE: trace, PGW_CONFIG_DIR: tmp } });
  expect(result.code).toBe(code);
  return readFileSync(trace, 'utf8').trim().split('\n').filter((u) => u.startsWith('file:') && u.includes('/dist/'));
}

describe('start-up path', () => {
  it.each([['--version'], ['--help']])('pgw %s loads no undici, zod, conf or @inquirer', async (flag) => {
    const { sources, code } = await loadedSources([flag]);
    expect(code).toBe(0);
    expect(sources.some((s) => s.startsWith('src/main.ts'))).toBe(true);
    expect(sources.filter((s) => HEAVY.test(s))).toEqual([]);
  });

  it('the check has teeth: a verb that writes profiles does load conf', async () => {
    const { sources, code } = await loadedSources(['profile', 'use', 'local', '--json']);
    expect(code).toBe(0);
    expect(sources.some((s) => /node_modules\/conf\//.test(s))).toBe(true);
  });

  // Issue 7: reading profiles needs no conf; a GET on the in-process sandbox needs no zod (only
  // the routes that validate a body load it) and no undici. Issue 23: and no HTTP either way: the
  // request goes into the sandbox's pipeline in the process (src/sandbox/in-process.ts), so
  // node:http's server (src/sandbox/server.ts) is never loaded, and no port is opened.
  it('a look-up on the embedded sandbox loads no undici, zod, conf or @inquirer, and no HTTP server', async () => {
    const { sources, code } = await loadedSources(['payment', 'get', 'PR0000000000', '--json']);
    expect(code).toBe(5);
    expect(sources.some((s) => s.startsWith('src/sandbox/pipeline.ts'))).toBe(true);
    expect(sources.some((s) => s.startsWith('src/sandbox/in-process.ts'))).toBe(true);
    expect(sources.filter((s) => s === 'src/sandbox/server.ts' || s === 'src/sandbox/serve.ts')).toEqual([]);
    expect(sources.filter((s) => HEAVY.test(s))).toEqual([]);
  });

  // Issue 23: a look-up printed as JSON loads none of the table code (cli-table3, string-width):
  // each verb's view.ts is imported only for table output. The table itself still loads it.
  it('a JSON look-up loads no table code; a table does', async () => {
    const TABLE = /node_modules\/(cli-table3|string-width)\//;
    const json = await loadedSources(['payment', 'get', 'PR0000000000', '--json']);
    expect(json.sources.filter((s) => TABLE.test(s))).toEqual([]);
    expect(json.sources.some((s) => s.startsWith('src/commands/payment/view.ts'))).toBe(false);
    const { sources, code } = await loadedSources(['sandbox', 'seed', '--payments', '1', '-o', 'table']);
    expect(code).toBe(0);
    expect(sources.some((s) => TABLE.test(s))).toBe(true);
  });

  // Issue 12: an ES import of a built-in builds its ESM facade, which reads every export, lazy
  // getters included: on Node 22 and later node:http's WebSocket loads Node's own undici (28 ms on
  // Node 24, 77 ms on Node 22). The bundle takes built-ins with require() (scripts/build.mjs); only
  // node:module, which provides require, is imported. The trace sees every ES import of a built-in.
  it('a look-up on the embedded sandbox imports no built-in as an ES module but node:module', async () => {
    const { builtins, code } = await loadedSources(['payment', 'get', 'PR0000000000', '--json']);
    expect(code).toBe(5);
    expect(builtins).toEqual([]);
  });

  it('the check has teeth: the trace sees a built-in imported as an ES module', () => {
    const trace = join(tmp, 'trace-builtin.txt');
    const r = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', "await import('node:fs'); await import('node:http');"], { env: { ...process.env, PGW_TRACE_FILE: trace } });
    expect(r.status).toBe(0);
    expect(readFileSync(trace, 'utf8').trim().split('\n')).toEqual(expect.arrayContaining(['node:fs', 'node:http']));
  });

  // Issue 23: chunks loaded together with an entry that always runs first live in its file
  // (scripts/merge-chunks.mjs): `--version` is main.js alone; so is the root's help on a pipe
  // (rendered at build time: scripts/root-help.mjs); `pgw help` renders it with the command tree.
  it.each([
    [['--version'], 1],
    [['--help'], 1],
    [['help'], 2],
  ])('pgw %j loads %i module(s) of dist/', async (args, count) => {
    expect(await distModules(args, 0)).toHaveLength(count);
  });

  // Each ES module costs Node a resolution, a package-scope look-up, a compile-cache read and a
  // link (~0.5 ms on Node 24). Small files join a file loaded wherever they are needed, groups
  // again until nothing moves, and an entry esbuild left as a facade of re-exports joins the file
  // its names live in, and a file always loaded with another joins it (merge-chunks.mjs): a
  // look-up on the embedded sandbox loaded 19 before. The in-process sandbox, its store and its
  // database are one file, and so are the command tree and the HTTP client (build.mjs,
  // `together`): main, the tree with the client, the sandbox, money.
  it.each([
    [['payment', 'get', 'PR0000000000', '--json'], 4],
    [['order', 'get', 'OD0000000000', '--json'], 4],
    [['settle', 'calc', '--payment', '1000', '--json'], 3],
  ])('pgw %j loads at most %i modules of dist/', async (args, most) => {
    const dist = await distModules(args);
    expect(dist.length).toBeGreaterThan(1);
    expect(dist.length).toBeLessThanOrEqual(most);
  });

  it('settle calc and profile list load none of them either', async () => {
    for (const args of [['settle', 'calc', '--payment', '1000', '--json'], ['profile', 'list', '--json']]) {
      const { sources, code } = await loadedSources(args);
      expect(code).toBe(0);
      expect(sources.filter((s) => HEAVY.test(s))).toEqual([]);
    }
  });
});

// Issue 23: undici's HTTP/2 client reads ten constants from node:http2 when it loads, and
// node:http2 brings node:tls and node:crypto (~11 ms on Node 24). The build gives it the
// constants and loads node:http2 only if a connection ever asks for it (scripts/build.mjs), so a
// call to a gateway over plain HTTP loads neither; HTTPS loads node:tls, as it must.
describe('built-ins of an API call', () => {
  const atExit = join(ROOT, 'test/helpers/builtins-at-exit.cjs');
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, message: 'ok', data: { payment_id: 'PR1234567890', status: 'CAPTURED' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function builtinsOf(baseUrl: string): Promise<{ code: number | null; builtins: string[]; stdout: string }> {
    const trace = join(tmp, `builtins-${(traces += 1)}.txt`);
    const env = { PGW_TRACE_FILE: trace, PGW_CONFIG_DIR: tmp, PGW_BASE_URL: baseUrl, PGW_CLIENT_ID: 'ci_test', PGW_CLIENT_SECRET: 'cs_test_0123456789abcdef' };
    const result = await spawnPgw(['payment', 'get', 'PR1234567890', '--json', '--timeout', '5000'], { nodeArgs: ['--require', atExit], env });
    return { code: result.code, builtins: readFileSync(trace, 'utf8').trim().split('\n'), stdout: result.stdout };
  }

  it('over plain HTTP: the answer, and no node:http2, node:tls or node:crypto', async () => {
    const { code, builtins, stdout } = await builtinsOf(`http://127.0.0.1:${port}`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).payment_id).toBe('PR1234567890');
    expect(builtins).toContain('net'); // the check sees what the call loads
    expect(builtins.filter((b) => b === 'http2' || b === 'tls' || b === 'crypto')).toEqual([]);
  });

  it('the check has teeth: over HTTPS, node:tls is loaded (the stub speaks no TLS: a network error)', async () => {
    const { code, builtins } = await builtinsOf(`https://127.0.0.1:${port}`);
    expect(code).toBe(3);
    expect(builtins).toContain('tls');
  });
});

// Issue 7: with its output piped, a command creates no process stream it does not write to.
// process.stdout for a pipe is a net.Socket (~4 ms to make); fd 1 is written directly
// (src/output/fd-output.ts) and fd 2, when a file or pipe, is known not to be a terminal.
const stdioHook = pathToFileURL(join(ROOT, 'test/helpers/watch-stdio.mjs')).href;

async function streamsCreated(args: string[]): Promise<{ streams: string[]; code: number | null; stdout: string }> {
  const file = join(tmp, `stdio-${args.join('-').replace(/[^a-z]/gi, '')}.txt`);
  const result = await spawnPgw(args, { nodeArgs: ['--import', stdioHook], env: { PGW_STDIO_FILE: file, PGW_CONFIG_DIR: tmp } });
  const streams = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
  return { streams, code: result.code, stdout: result.stdout };
}

describe('process streams on a pipe', () => {
  it.each([[['--version']], [['--help']], [['settle', 'calc', '--payment', '1000', '--json']], [['payment', 'get', 'PR0000000000', '--help']]])(
    'pgw %j writes its output and creates no process stream',
    async (args) => {
      const { streams, code, stdout } = await streamsCreated(args);
      expect(code).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      expect(streams).toEqual([]);
    },
  );

  it('the check has teeth: an error creates stderr, and only it', async () => {
    const { streams, code } = await streamsCreated(['settle', 'calc', '--payment', 'ten']);
    expect(code).toBe(2);
    expect(streams).toEqual(['stderr']);
  });
});

