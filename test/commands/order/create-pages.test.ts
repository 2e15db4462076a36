// Where the buyer pages of a new order are: the embedded `local` profile (page addresses on
// `pgw sandbox serve`'s port), --open with an injected opener, and --acs-out's checks.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Context } from '../../../src/context.js';
import { buildOrderCreateOptions, runOrderCreate } from '../../../src/commands/order/create.js';
import { openerCommand } from '../../../src/commands/order/open.js';
import { runCli } from '../../helpers/run.js';
import { cardJson, orderFlags, orderJson, useMock, useSandbox, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const sb = useSandbox(ws);
const mock = useMock(ws);

class Capture extends PassThrough {
  isTTY?: boolean;
  text = '';
  constructor(tty: boolean) {
    super();
    if (tty) this.isTTY = true;
    this.on('data', (c: Buffer) => (this.text += c.toString('utf8')));
  }
}

/** The runner with an injected opener (commander passes flags; here they are given directly). */
async function createWithOpener(flags: Record<string, unknown>, opener: (t: string) => Promise<void>) {
  const [stdin, stdout, stderr] = [new Capture(true), new Capture(true), new Capture(true)];
  const ctx = new Context({ stdin, stdout, stderr, env: sb.env });
  ctx.setGlobals({});
  try {
    await runOrderCreate(ctx, buildOrderCreateOptions(flags), { opener });
  } finally {
    await ctx.close();
  }
  return { stdout: stdout.text, stderr: stderr.text };
}

const baseFlags = () => ({ file: ws.file('o.json', orderJson()) });

describe('the embedded local profile', () => {
  it('prints the checkout address on port 4010 and says to start pgw sandbox serve', async () => {
    const r = await runCli(['order', 'create', ...orderFlags()], { tty: true, env: { PGW_CONFIG_DIR: ws.dir } });
    expect(r.code).toBe(0);
    const session = /session_id\s+(\S+)/.exec(r.stdout)![1]!;
    expect(r.stdout).toContain(`http://127.0.0.1:4010/checkout/${session}/`);
    expect(r.stderr).toContain('`pgw sandbox serve`');
  });
});

describe('--open', () => {
  it('hosted: opens the checkout address', async () => {
    const opened: string[] = [];
    const r = await createWithOpener({ ...baseFlags(), open: true }, async (t) => void opened.push(t));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(new RegExp(`^${sb.sandbox.baseUrl}/checkout/[0-9a-f]{64}/$`));
    expect(r.stderr).toContain(`opened the checkout page: ${opened[0]}`);
  });

  it('card: writes the page to a private temp file and opens it', async () => {
    const opened: string[] = [];
    await createWithOpener(
      { ...baseFlags(), mode: 's2s', mop: 'credit_card', cardFile: ws.file('card.json', cardJson()), open: true },
      async (t) => void opened.push(t),
    );
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/pgw-3ds-.*\/OD[0-9]+\.html$/);
    expect(statSync(opened[0]!).mode & 0o777).toBe(0o600);
    expect(readFileSync(opened[0]!, 'utf8')).toContain('/3ds/');
    rmSync(dirname(opened[0]!), { recursive: true, force: true });
  });

  it('a missing browser is a warning: the order was created', async () => {
    const r = await createWithOpener({ ...baseFlags(), open: true }, async () => {
      throw Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' });
    });
    expect(r.stdout).toMatch(/order_id\s+OD/);
    // (On a terminal the warning folds at spaces: the long address starts a line of its own.)
    expect(r.stderr).toMatch(/warning: could not open a browser \(ENOENT\); the checkout page is at\s+http/);
  });

  it('is refused for S2S UPI, before anything is sent', async () => {
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'upi', '--upi-flow', 'intent', '--open']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--open applies to hosted orders');
  });

  it('the opener command per platform', () => {
    expect(openerCommand('darwin', '/x.html')).toEqual({ command: 'open', args: ['/x.html'] });
    expect(openerCommand('linux', '/x.html')).toEqual({ command: 'xdg-open', args: ['/x.html'] });
    expect(openerCommand('win32', 'C:\\x.html')).toEqual({ command: 'cmd', args: ['/c', 'start', '""', 'C:\\x.html'] });
  });
});

describe('--acs-out checks (exit 2, nothing sent)', () => {
  it('refused for a hosted order', async () => {
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--acs-out', join(ws.dir, 'x.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--acs-out applies to S2S card orders');
    expect(existsSync(join(ws.dir, 'x.html'))).toBe(false);
  });

  it('refused when the directory does not exist', async () => {
    const card = ws.file('card.json', cardJson());
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', card, '--acs-out', join(ws.dir, 'nope', 'x.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--acs-out: cannot write');
  });

  it('refused when it names a directory', async () => {
    const card = ws.file('card.json', cardJson());
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', card, '--acs-out', ws.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a directory');
  });

  // Issue 31 item 8: the page would be written wherever a planted link points; nothing is sent.
  it('refused when it is a symbolic link, dangling or not: nothing written where it points', async () => {
    const card = ws.file('card.json', cardJson());
    const theirs = ws.file('theirs.html', 'theirs');
    for (const [name, target] of [['dangling.html', join(ws.dir, 'nothing-here.html')], ['linked.html', theirs]] as const) {
      const link = join(ws.dir, name);
      symlinkSync(target, link);
      const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', card, '--acs-out', link, '-o', 'table']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: --acs-out: cannot write ${link}: it is a symbolic link, and pgw never writes through one: name the file itself\n`);
    }
    expect(existsSync(join(ws.dir, 'nothing-here.html'))).toBe(false);
    expect(readFileSync(theirs, 'utf8')).toBe('theirs');
  });
});

describe('a real gateway', () => {
  it('has no known checkout address: session_id only', async () => {
    const uat = 'https://api-pacb-uat.eximpe.com';
    mock.reply('POST', '/pg/orders/', 200, { success: true, message: 'checkout session created', data: { order_id: 'OD1', session_id: 'sess_1' } }, uat);
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '-o', 'table'], { env: { PGW_BASE_URL: uat } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/session_id\s+sess_1/);
    expect(r.stdout).not.toContain('checkout');
  });
});
