// Issue 22 item 9 through the built binary: gh's --jq and --json <fields> are refused with the
// --query hint before any request, and an -o pgw does not know is refused in JSON when JSON is
// the mode (both streams piped), like every other error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-gh-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pgw = (args: string[]) => spawnPgw(args, { env: { PGW_CONFIG_DIR: dir } });
const errorOf = (stderr: string) => JSON.parse(stderr.trim()).error as { code: string; message: string };

describe("gh's habits", () => {
  it('--jq is refused with "use --query (JMESPath)", nothing sent', async () => {
    const r = await pgw(['payment', 'get', 'PR0000000001', '--jq', '.status', '--verbose']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorOf(r.stderr).message).toContain('pgw filters JSON with --query (JMESPath)');
    expect(r.stderr).not.toContain('GET ');
  }, 30_000);

  it('--json status on a look-up is not read as an ID', async () => {
    const r = await pgw(['payment', 'get', 'PR0000000001', '--json', 'status', '--verbose']);
    expect(r.code).toBe(2);
    const error = errorOf(r.stderr);
    expect(error.code).toBe('USAGE');
    expect(error.message).toContain('--json takes no field list in pgw ("--json status" is gh\'s)');
    expect(r.stderr).not.toContain('GET ');
  }, 30_000);

  it('--json payment_id,status on a list is the same hint, not "too many arguments"', async () => {
    const r = await pgw(['link', 'list', '--json', 'link_id,status']);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).message).toContain('--json takes no field list');
    expect(r.stderr).not.toContain('too many arguments');
  }, 30_000);

  it('-o yaml on a pipe is refused as a JSON error object', async () => {
    const r = await pgw(['payment', 'get', 'PR0000000001', '-o', 'yaml']);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).message).toContain("argument 'yaml' is invalid");
    const env = await spawnPgw(['payment', 'get', 'PR0000000001'], { env: { PGW_CONFIG_DIR: dir, PGW_OUTPUT: 'yaml' } });
    expect(env.code).toBe(2);
    expect(errorOf(env.stderr).message).toContain('yaml');
  }, 30_000);
});
