// issue 42 at an 80-column terminal (tmux, the built binary): the verification work queue, a
// send-back read by the person who must answer it, a `next:` line that folds with ` \` and still
// pastes as one command, a payment that needs no verification in one line, and what a clock move
// caused. The data is made in-process on the same config directory; only the screens are spawned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

const config = tempConfigDir();
const env = { PGW_CONFIG_DIR: config.dir };
let cardPayment: string;
let sentBack: string;
let open: string;

async function json<T = any>(...argv: string[]): Promise<T> {
  const r = await runCli([...argv, '--json'], { env });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

async function screenOf(args: string[]): Promise<string> {
  const t = startPgw(args, { env, columns: 80 });
  try {
    expect(await t.exited()).toBe(0);
    const screen = t.screen();
    for (const line of screen.split('\n')) expect([...line].length, screen).toBeLessThanOrEqual(80);
    return screen;
  } finally {
    t.close();
  }
}

/** The `next:` command on a screen as a shell reads it: continuation lines joined. */
function nextCommand(screen: string): string {
  const lines = screen.split('\n');
  const start = lines.findIndex((l) => l.startsWith('next: '));
  expect(start, screen).toBeGreaterThanOrEqual(0);
  const parts = [lines[start]!.slice('next: '.length)];
  for (let i = start; lines[i]!.endsWith(' \\'); i++) parts.push(lines[i + 1]!.trim());
  return parts.map((p) => p.replace(/ \\$/, '')).join(' ');
}

beforeAll(async () => {
  if (!hasTmux) return;
  [cardPayment, sentBack, open] = (await Promise.all(['700', '2500', '1500'].map(async (amount) => (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', amount)).payment_id as string))) as [string, string, string];
  await json('sandbox', 'verification', open, 'ACTION_REQUIRED');
  await json('sandbox', 'verification', sentBack, 'ACTION_REQUIRED');
  await json('sandbox', 'verification', sentBack, 'UNDER_REVIEW');
  await json('sandbox', 'verification', sentBack, 'ACTION_REQUIRED', '--message', 'The invoice is unreadable: send a clearer scan');
}, 60_000);
afterAll(() => config.cleanup());

describe.runIf(hasTmux)('compliance operations at 80 columns', () => {
  it('the work queue: each open payment, its state, what is owed and the reviewer\'s message', async () => {
    const screen = await screenOf(['payment', 'verification']);
    expect(screen).toMatch(/│ payment +│ state +│ owed +│ message +│/);
    for (const id of [open, sentBack]) expect(screen).toMatch(new RegExp(`│ ${id} │ ACTION_REQUIRED │`));
    expect(screen).not.toContain(cardPayment);
    // The message column, read down: the reviewer's words, whole.
    const messages = screen.split('\n').filter((l) => l.startsWith('│')).map((l) => l.split('│')[4]!.trim()).join(' ');
    expect(messages).toContain('The invoice is unreadable: send a clearer scan');
    expect(screen).toMatch(/note: \d+ requests: 1 page of captured payments, 3 checklists/);
    const first = /│ (PR\d{10}) │/.exec(screen.split('\n').slice(3).join('\n'))![1];
    expect(nextCommand(screen)).toBe(`pgw payment verification ${first}`);
  }, 60_000);

  it('a send-back: the message, what it asks and the deadline, and a next: line that pastes whole', async () => {
    const screen = await screenOf(['payment', 'verification', sentBack]);
    expect(screen.replace(/\n {16}/g, ' ')).toMatch(/last message +The invoice is unreadable: send a clearer scan/);
    expect(screen).toMatch(/deadline +\d{4}-\d\d-\d\d \d\d:\d\d \(then it expires/);
    // Folded at 80 with a backslash: what the shell runs is the whole command.
    expect(screen).toMatch(/^next: pgw payment verify .* \\$/m);
    expect(nextCommand(screen)).toBe(`pgw payment verify ${sentBack} --field business_model=<value> --field purpose_code=<value>`);
  }, 60_000);

  it('a payment that needs no verification says so in one line', async () => {
    const screen = await screenOf(['payment', 'verification', cardPayment]);
    expect(screen.replace(/\n(?!hint|\[exit)/g, ' ')).toContain(`${cardPayment} is READY_FOR_SETTLEMENT: it needs no verification`);
    expect(screen).not.toContain('outstanding');
    expect(screen.replace(/\n +/g, ' ')).toContain(`pgw sandbox verification ${cardPayment} ACTION_REQUIRED`);
  }, 60_000);

  it('a clock move past the deadline: the refunds it issued, with their amounts', async () => {
    const screen = await screenOf(['sandbox', 'clock', 'advance', '8d']);
    expect(screen).toContain('what the move caused');
    expect(screen).toMatch(new RegExp(`^ +(verifications expired)? +${open} 1500\\.00, refunded in full by RF\\d+`, 'm'));
    expect(screen).toMatch(new RegExp(`^ +(verifications expired)? +${sentBack} 2500\\.00, refunded in full by RF\\d+`, 'm'));
    expect(screen).toMatch(/refunds issued +4000\.00 in 2 refunds/);
    expect(screen).toMatch(/^next: pgw refund get RF\d{10} RF\d{10}$/m);
  }, 60_000);
});
