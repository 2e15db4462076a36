import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Context, type GlobalOptions } from '../src/context.js';
import { openProfileStore } from '../src/config/profiles.js';
import { PUBLIC_BASE_URLS, type ResolvedProfile } from '../src/config/types.js';
import { ExitCode, RefusedError, exitCodeFor } from '../src/errors.js';
import { confirmProduction, isProduction, productionBanner, requireSandbox } from '../src/rails.js';
import { fakePrompter, type FakePrompter } from './helpers/fake-prompter.js';
import { loadColor } from '../src/output/theme.js';

class Capture extends PassThrough {
  isTTY?: boolean;
  text = '';
  constructor(tty: boolean) {
    super();
    if (tty) this.isTTY = true;
    this.on('data', (c: Buffer) => (this.text += c.toString('utf8')));
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-rails-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function makeCtx(opts: { tty?: boolean; globals?: GlobalOptions; prompter?: FakePrompter; env?: Record<string, string> } = {}) {
  const tty = opts.tty ?? false;
  const stdin = new Capture(tty);
  const stdout = new Capture(tty);
  const stderr = new Capture(tty);
  const ctx = new Context({ stdin, stdout, stderr, env: { PGW_CONFIG_DIR: dir, ...opts.env }, prompter: opts.prompter });
  ctx.setGlobals(opts.globals ?? {});
  return { ctx, stdout, stderr };
}

const profile = (env: ResolvedProfile['env'], extra: Partial<ResolvedProfile> = {}): ResolvedProfile => ({
  name: env === 'production' ? 'prod' : 'dev',
  env,
  builtIn: false,
  baseUrl: env === 'embedded' ? undefined : PUBLIC_BASE_URLS[env],
  apiVersion: '3.0.0',
  timeoutMs: 30000,
  ...extra,
});

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<RefusedError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(RefusedError);
    expect(exitCodeFor(err)).toBe(ExitCode.refused);
    return err as RefusedError;
  }
  throw new Error('expected a RefusedError, nothing was thrown');
}

describe('isProduction', () => {
  test.each([
    [profile('production'), true],
    [profile('sandbox'), false],
    [profile('embedded'), false],
    [profile('sandbox', { baseUrl: PUBLIC_BASE_URLS.production }), true],
    [profile('sandbox', { baseUrl: `${PUBLIC_BASE_URLS.production}/` }), true],
    [profile('embedded', { baseUrl: 'http://127.0.0.1:4010' }), false],
  ])('%#', (p, expected) => {
    expect(isProduction(p)).toBe(expected);
  });
});

describe('requireSandbox', () => {
  test('refuses production with exit 6, naming the command and profile', async () => {
    const err = await refusal(() => requireSandbox(profile('production'), 'settle mark'));
    expect(err.message).toBe('settle mark is sandbox only: refused on production profile "prod"');
  });
  test('refuses a sandbox profile pointed at the production address', async () => {
    await refusal(() => requireSandbox(profile('sandbox', { baseUrl: PUBLIC_BASE_URLS.production }), 'sub simulate'));
  });
  test.each(['sandbox', 'embedded'] as const)('lets %s through', (env) => {
    expect(() => requireSandbox(profile(env), 'settle mark')).not.toThrow();
  });
});

describe('confirmProduction', () => {
  test('does nothing off production, even without a terminal or --yes', async () => {
    const prompter = fakePrompter();
    const { ctx } = makeCtx({ prompter });
    await confirmProduction(ctx, profile('sandbox'), 'order create');
    await confirmProduction(ctx, profile('embedded'), 'order create');
    expect(prompter.asked).toEqual([]);
  });

  test('with --yes it passes without asking', async () => {
    const prompter = fakePrompter();
    const { ctx } = makeCtx({ globals: { yes: true }, tty: true, prompter });
    await confirmProduction(ctx, profile('production'), 'order create');
    expect(prompter.asked).toEqual([]);
  });

  test('without a terminal and without --yes it is exit 6 and asks nothing', async () => {
    const prompter = fakePrompter(true);
    const { ctx } = makeCtx({ prompter });
    const err = await refusal(confirmProduction(ctx, profile('production'), 'order create'));
    expect(err.message).toMatch(/^order create needs --yes on a production profile/);
    expect(prompter.asked).toEqual([]);
  });

  test('--no-input counts as no terminal', async () => {
    const prompter = fakePrompter(true);
    const { ctx } = makeCtx({ tty: true, globals: { input: false }, prompter });
    await refusal(confirmProduction(ctx, profile('production'), 'merchant update'));
    expect(prompter.asked).toEqual([]);
  });

  test('in a terminal, a yes lets it through', async () => {
    const prompter = fakePrompter({ kind: 'confirm', answer: true });
    const { ctx, stdout } = makeCtx({ tty: true, prompter });
    await confirmProduction(ctx, profile('production'), 'order create');
    expect(prompter.asked).toHaveLength(1);
    expect(prompter.asked[0]!.message).toContain('PRODUCTION');
    expect(prompter.asked[0]!.message).toContain('order create');
    expect(prompter.asked[0]!.default).toBe(false);
    expect(stdout.text).toBe('');
    prompter.assertDone();
  });

  test('in a terminal, a no is exit 6', async () => {
    const prompter = fakePrompter({ kind: 'confirm', answer: false });
    const { ctx } = makeCtx({ tty: true, prompter });
    const err = await refusal(confirmProduction(ctx, profile('production'), 'order update'));
    expect(err.message).toContain('not confirmed');
    prompter.assertDone();
  });
});

describe('productionBanner', () => {
  test('prints a PRODUCTION line on stderr, once per run, nothing on stdout', () => {
    const { ctx, stdout, stderr } = makeCtx();
    productionBanner(ctx, profile('production'));
    productionBanner(ctx, profile('production'));
    expect(stderr.text.match(/PRODUCTION/g)).toHaveLength(1);
    expect(stderr.text).toContain('"prod"');
    expect(stdout.text).toBe('');
  });

  test('is red on a colour terminal, plain otherwise', async () => {
    await loadColor(); // program.ts does this before any action when a stream is coloured
    const tty = makeCtx({ tty: true, env: { TERM: 'xterm' } });
    productionBanner(tty.ctx, profile('production'));
    expect(tty.stderr.text).toContain('\u001b[31m');
    const plain = makeCtx();
    productionBanner(plain.ctx, profile('production'));
    expect(plain.stderr.text).not.toContain('\u001b[');
  });

  test.each(['sandbox', 'embedded'] as const)('prints nothing for %s', (env) => {
    const { ctx, stdout, stderr } = makeCtx();
    productionBanner(ctx, profile(env));
    expect(stderr.text).toBe('');
    expect(stdout.text).toBe('');
  });

  test('context resolution prints it for a production profile only', async () => {
    const store = await openProfileStore(dir);
    store.set('prod', { env: 'production', client_id: 'c', client_secret: 'sk_marker_9f8e7d6c5b4a' });
    store.set('dev', { env: 'sandbox', client_id: 'c', client_secret: 's' });

    const prod = makeCtx({ globals: { profile: 'prod' } });
    expect((await prod.ctx.profile()).env).toBe('production');
    await prod.ctx.profile();
    expect(prod.stderr.text.match(/PRODUCTION/g)).toHaveLength(1);
    expect(prod.stderr.text).not.toContain('sk_marker');
    expect(prod.stdout.text).toBe('');

    const dev = makeCtx({ env: { PGW_PROFILE: 'dev' } });
    expect((await dev.ctx.profile()).name).toBe('dev');
    expect(dev.stderr.text).toBe('');
  });
});

describe('issue 13 items 4 and 5: hosts and paths as a server reads them', () => {
  test('normaliseHost: case, trailing dots, percent-encoding and full-width dots', async () => {
    const { normaliseHost, isProduction } = await import('../src/rails.js');
    for (const host of ['API-PACB.eximpe.com', 'api-pacb.eximpe.com.', 'api-pacb.eximpe%2ecom', 'api-pacb\u3002eximpe\uff0ecom', 'api-pacb\uff61eximpe.com..']) {
      expect(normaliseHost(host), host).toBe('api-pacb.eximpe.com');
    }
    expect(isProduction({ env: 'sandbox', baseUrl: 'https://api-pacb.eximpe.com.:8443/' })).toBe(true);
    expect(isProduction({ env: 'sandbox', baseUrl: 'https://api-pacb-uat.eximpe.com.' })).toBe(false);
  });

  test('isSandboxOnlyPath: mark-settled, simulate_payment and /sandbox/, however written', async () => {
    const { isSandboxOnlyPath } = await import('../src/rails.js');
    for (const path of ['/pg/settlements/mark-settled/', '/sandbox/reset/', '/SANDBOX/seed/', '//sandbox//reset/', '/pg/%2e%2e/sandbox/reset/', '/pg/../sandbox/x', '/pg/subscriptions/S1/simulate_payment/', '/pg/settlements/mark%2Dsettled/', '/sandbox']) {
      expect(isSandboxOnlyPath(path), path).toBe(true);
    }
    for (const path of ['/pg/orders/', '/pg/payments/PR1/', '/partners/merchants/', '/pg/sandboxes/']) expect(isSandboxOnlyPath(path), path).toBe(false);
  });
});
