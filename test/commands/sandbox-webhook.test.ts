// pgw sandbox webhook add · list · remove against the embedded sandbox (in-process, real HTTP).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { runCli, tempConfigDir } from '../helpers/run.js';

let config: { dir: string; cleanup: () => void };
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const pgw = (argv: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(argv, { ...opts, env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1', ...opts.env } });

describe('sandbox webhook', () => {
  it('add, list (JSON and table), remove', async () => {
    const added = await pgw(['sandbox', 'webhook', 'add', 'https://shop.example/hooks', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const hook = JSON.parse(added.stdout) as { id: string; url: string; listener: boolean };
    expect(hook).toMatchObject({ id: expect.stringMatching(/^WH[0-9]{10}$/), url: 'https://shop.example/hooks', listener: false });

    const listed = await pgw(['sandbox', 'webhook', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: hook.id, url: hook.url })]);
    const table = await pgw(['sandbox', 'webhook', 'list', '-o', 'table']);
    expect(table.stdout).toMatch(new RegExp(`${hook.id}\\s+│\\s+https://shop.example/hooks\\s+│\\s+address`));

    const dry = await pgw(['sandbox', 'webhook', 'remove', hook.id, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'DELETE', url: expect.stringContaining(`/sandbox/webhooks/${hook.id}/`) });
    expect(JSON.parse((await pgw(['sandbox', 'webhook', 'list', '--json'])).stdout)).toHaveLength(1);

    const removed = await pgw(['sandbox', 'webhook', 'remove', hook.id, '-o', 'table']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`removed ${hook.id}`);
    expect(JSON.parse((await pgw(['sandbox', 'webhook', 'list', '--json'])).stdout)).toEqual([]);
    const empty = await pgw(['sandbox', 'webhook', 'list', '-o', 'table']);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('no webhook addresses registered');

    const again = await pgw(['sandbox', 'webhook', 'remove', hook.id, '-o', 'table']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(`${hook.id} not found`);
  });

  it('remove refuses an ID that would change the path (exit 2)', async () => {
    const r = await pgw(['sandbox', 'webhook', 'remove', '../reset', '-o', 'table']);
    expect(r.code).toBe(2);
  });

  it.each([[['sandbox', 'webhook', 'list']], [['sandbox', 'webhook', 'remove', 'WH1234567890']], [['trigger', 'PAYMENT_SETTLED']]])(
    '%j is refused on production with exit 6 and nothing sent',
    async (argv) => {
      const agent = new MockAgent();
      agent.disableNetConnect();
      const r = await pgw([...argv, '-o', 'table'], {
        dispatcher: agent,
        env: { PGW_BASE_URL: 'https://api-pacb.eximpe.com', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' },
      });
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('sandbox only');
      agent.assertNoPendingInterceptors();
    },
  );

  it("trigger refuses the gateway's own sandbox before sending anything (exit 2)", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const r = await pgw(['trigger', 'PAYMENT_SETTLED', '-o', 'table'], {
      dispatcher: agent,
      env: { PGW_BASE_URL: 'https://api-pacb-uat.eximpe.com', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("trigger needs pgw's own sandbox");
    agent.assertNoPendingInterceptors();
  });
});
