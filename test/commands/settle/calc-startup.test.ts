// `pgw settle calc` is offline: on the real bundle it loads no undici, conf, zod or @inquirer
// (the loader hook of test/e2e/startup.test.ts lists the chunks Node loads; esbuild's metafile
// says which sources each holds). Needs dist/ (npm test builds first; build/meta.json is the build's metafile).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT, spawnPgw } from '../../helpers/spawn.js';

const HEAVY = /node_modules\/(undici|zod|conf|@inquirer)\//;
const hook = pathToFileURL(join(ROOT, 'test/helpers/trace-loads.mjs')).href;

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pgw-calc-startup-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function traced(args: string[], name: string, env: Record<string, string> = {}) {
  const meta = JSON.parse(readFileSync(join(ROOT, 'build/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const trace = join(tmp, `${name}.txt`);
  const configDir = join(tmp, `${name}-config`);
  const result = await spawnPgw(args, { nodeArgs: ['--import', hook], env: { PGW_TRACE_FILE: trace, PGW_CONFIG_DIR: configDir, ...env } });
  const sources = new Set<string>();
  for (const url of existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n') : []) {
    if (!url.startsWith('file:')) continue;
    const file = relative(ROOT, fileURLToPath(url)).split('\\').join('/');
    const output = meta.outputs[file];
    for (const input of output ? Object.keys(output.inputs) : [file]) sources.add(input);
  }
  return { ...result, sources: [...sources], configDirCreated: existsSync(configDir) };
}

describe('settle calc start-up', () => {
  it('loads neither undici, conf, zod nor @inquirer, and creates no config dir', async () => {
    const r = await traced(['settle', 'calc', '--payment', '1000.00', '--refund', '100.00', '--chargeback', '50.00', '--json'], 'calc');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).settlement_amount).toBe('791.00');
    expect(r.sources.some((s) => s.startsWith('src/commands/settle/calc.ts'))).toBe(true);
    expect(r.sources.some((s) => s.startsWith('src/settlement.ts'))).toBe(true);
    expect(r.sources.filter((s) => HEAVY.test(s))).toEqual([]);
    expect(r.configDirCreated).toBe(false);
  });

  // Issue 23: JSON needs no table: cli-table3 and string-width are loaded only to draw one.
  it('with JSON out loads no table code; with -o table it does', async () => {
    const TABLE = /node_modules\/(cli-table3|string-width|@colors)\//;
    const json = await traced(['settle', 'calc', '--payment', '1000.00', '--json'], 'calc-json');
    expect(json.code).toBe(0);
    expect(json.sources.filter((s) => TABLE.test(s) || s === 'src/output/render.ts')).toEqual([]);
    const table = await traced(['settle', 'calc', '--payment', '1000.00', '-o', 'table'], 'calc-table');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('settlement_amount');
    expect(table.sources.some((s) => /node_modules\/cli-table3\//.test(s))).toBe(true);
  });

  // The embedded sandbox is reached over node:http and profiles are read without conf (issue 7), so
  // the teeth are a gateway that is not in this process (undici) and a profile write (conf).
  it('the check has teeth: settle get against a gateway loads undici, a profile write loads conf', async () => {
    const gateway = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: { code: 'ERR_SETTLEMENT_002', message: 'Settlement not found' } }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
      const r = await traced(['settle', 'get', 'ST0000000001', '--json'], 'get', { PGW_BASE_URL: base, PGW_CLIENT_ID: 'c', PGW_CLIENT_SECRET: 's' });
      expect(r.code).toBe(5);
      expect(r.sources.some((s) => /node_modules\/undici\//.test(s))).toBe(true);
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
    const w = await traced(['profile', 'use', 'local', '--json'], 'use');
    expect(w.sources.some((s) => /node_modules\/conf\//.test(s))).toBe(true);
  });
});
