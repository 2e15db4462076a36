import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { ExitCode, InterruptedError, UsageError, exitCodeFor } from '../src/errors.js';
import { createIO } from '../src/output/io.js';
import { createPrompter } from '../src/prompts.js';
import { ACCEPT_DEFAULT, FakePrompterError, fakePrompter, interrupt } from './helpers/fake-prompter.js';

const SECRET = 'sk_marker_9f8e7d6c5b4a';

class Capture extends PassThrough {
  isTTY?: boolean;
  text = '';
  constructor(tty: boolean) {
    super();
    if (tty) this.isTTY = true;
    this.on('data', (c: Buffer) => (this.text += c.toString('utf8')));
  }
}

function terminal(opts: { tty?: boolean; noInput?: boolean; noColor?: boolean; env?: Record<string, string> } = {}) {
  const tty = opts.tty ?? true;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (tty) stdin.isTTY = true;
  const stdout = new Capture(tty);
  const stderr = new Capture(tty);
  const io = createIO({ stdin, stdout, stderr, env: opts.env ?? {}, noInput: opts.noInput, noColor: opts.noColor });
  // Keys arrive once the prompt is drawn (it has attached to stdin by then), a little apart, as a
  // person's would: a prompt ignores keys while it validates.
  const type = (...keys: string[]) => {
    stderr.once('data', () => {
      let delay = 20;
      for (const key of keys) {
        setTimeout(() => stdin.write(key), delay);
        delay += 30;
      }
    });
  };
  return { io, stdin, stdout, stderr, type, prompter: createPrompter(io) };
}

describe('createPrompter on a terminal', () => {
  test('input reads a line from stdin and draws on stderr, never stdout', async () => {
    const t = terminal();
    t.type('cid_123\r');
    await expect(t.prompter.input({ message: 'Client ID:' })).resolves.toBe('cid_123');
    expect(t.stderr.text).toContain('Client ID:');
    expect(t.stdout.text).toBe('');
  });

  test('input takes the default on a bare enter', async () => {
    const t = terminal();
    t.type('\r');
    await expect(t.prompter.input({ message: 'Currency', default: 'INR' })).resolves.toBe('INR');
  });

  test('input re-asks until validate accepts', async () => {
    const t = terminal();
    t.type('\r', 'ok\r');
    const answer = await t.prompter.input({ message: 'Name', validate: (v) => (v === '' ? 'a name is needed' : true) });
    expect(answer).toBe('ok');
    expect(t.stderr.text).toContain('a name is needed');
  });

  test('password is masked: the secret never reaches the screen', async () => {
    const t = terminal();
    t.type(`${SECRET}\r`);
    await expect(t.prompter.password({ message: 'Client secret:' })).resolves.toBe(SECRET);
    expect(t.stderr.text).toContain('Client secret:');
    expect(t.stderr.text).toContain('*'.repeat(SECRET.length));
    expect(t.stderr.text).not.toContain(SECRET);
    expect(t.stderr.text).not.toContain('5b4a');
    expect(t.stdout.text).toBe('');
  });

  test('confirm answers yes and no, and takes the default', async () => {
    const t = terminal();
    t.type('y\r');
    await expect(t.prompter.confirm({ message: 'Sure?', default: false })).resolves.toBe(true);
    const u = terminal();
    u.type('n\r');
    await expect(u.prompter.confirm({ message: 'Sure?', default: true })).resolves.toBe(false);
    const v = terminal();
    v.type('\r');
    await expect(v.prompter.confirm({ message: 'Sure?', default: false })).resolves.toBe(false);
  });

  test("the prompts take pgw's colour decision: coloured on a colour terminal, none with --no-color or NO_COLOR", async () => {
    const SGR = /\u001b\[[0-9;]*m/;
    const drawAll = async (opts: { noColor?: boolean; env?: Record<string, string> }) => {
      const t = terminal(opts);
      t.type('x', '\r');
      await t.prompter.input({ message: 'Name', default: 'n', validate: (v) => (v === 'x' ? true : 'no') });
      const u = terminal(opts);
      u.type('s3cret\r');
      await u.prompter.password({ message: 'Secret' });
      const v = terminal(opts);
      v.type('y\r');
      await v.prompter.confirm({ message: 'Sure?' });
      const w = terminal(opts);
      w.type('\u001b[B', '\r');
      await w.prompter.select({ message: 'Env', choices: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b', description: 'bee' }] });
      return [t, u, v, w].map((x) => x.stderr.text);
    };
    for (const drawn of await drawAll({})) expect(drawn).toMatch(SGR);
    const uncoloured: { noColor?: boolean; env?: Record<string, string> }[] = [{ noColor: true }, { env: { NO_COLOR: '1' } }, { env: { TERM: 'dumb' } }];
    for (const opts of uncoloured) {
      for (const drawn of await drawAll(opts)) {
        expect(drawn).toMatch(/[?✔]/);
        expect(drawn).not.toMatch(SGR);
      }
    }
  });

  test('select moves with the arrow keys and returns the value', async () => {
    const t = terminal();
    t.type('\u001b[B', '\r');
    const choice = await t.prompter.select({
      message: 'Environment',
      choices: [
        { name: 'Sandbox', value: 'sandbox' },
        { name: 'Production', value: 'production', description: 'real money' },
      ],
    });
    expect(choice).toBe('production');
    expect(t.stdout.text).toBe('');
    // The prompt's end leaves pgw's stderr open: the answer line, and what pgw says next, follow it.
    await new Promise((r) => setImmediate(r));
    expect(t.stderr.writableEnded).toBe(false);
    expect(t.stderr.text).toMatch(/Environment.*Production/);
  });

  test('one prompter asks again after a prompt has ended (a guided flow), on the same stderr', async () => {
    const t = terminal();
    t.type('\u001b[B', '\r');
    await expect(t.prompter.select({ message: 'Mode', choices: [{ name: 'hosted', value: 'h' }, { name: 's2s', value: 's' }] })).resolves.toBe('s');
    t.type('INV-9\r');
    await expect(t.prompter.input({ message: 'Invoice' })).resolves.toBe('INV-9');
    expect(t.stderr.text).toContain('Invoice');
    expect(t.stderr.writableEnded).toBe(false);
  });

  test('Ctrl-C is an interruption: InterruptedError, exit 130', async () => {
    const t = terminal();
    t.type('\u0003');
    const err = await t.prompter.confirm({ message: 'Sure?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(exitCodeFor(err)).toBe(ExitCode.interrupted);
  });
});

describe('createPrompter without a person', () => {
  test.each([
    ['stdin and stdout are not terminals', { tty: false }],
    ['--no-input', { noInput: true }],
    ['PGW_NO_INPUT=1', { env: { PGW_NO_INPUT: '1' } }],
  ])('refuses every question with exit 2 when %s', async (_, opts) => {
    const t = terminal(opts);
    expect(t.io.canPrompt).toBe(false);
    for (const ask of [
      () => t.prompter.input({ message: 'Client ID:' }),
      () => t.prompter.password({ message: 'Client secret:' }),
      () => t.prompter.confirm({ message: 'Sure?' }),
      () => t.prompter.select({ message: 'Env', choices: [{ name: 'a', value: 'a' }] }),
    ]) {
      const err = await ask().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(exitCodeFor(err)).toBe(ExitCode.usage);
      expect((err as Error).message).toMatch(/^cannot prompt for ".+": .*flags/);
    }
    expect(t.stderr.text).toBe('');
  });
});

describe('fake prompter', () => {
  test('answers from the queue in order and records each question', async () => {
    const p = fakePrompter('cid', SECRET, true, 'production');
    expect(await p.input({ message: 'Client ID:' })).toBe('cid');
    expect(await p.password({ message: 'Secret:' })).toBe(SECRET);
    expect(await p.confirm({ message: 'Sure?', default: false })).toBe(true);
    expect(
      await p.select({ message: 'Env', choices: [{ name: 'S', value: 'sandbox' }, { name: 'P', value: 'production' }] }),
    ).toBe('production');
    expect(p.asked.map((q) => [q.kind, q.message, q.answer])).toEqual([
      ['input', 'Client ID:', 'cid'],
      ['password', 'Secret:', SECRET],
      ['confirm', 'Sure?', true],
      ['select', 'Env', 'production'],
    ]);
    expect(p.asked[3]!.choices).toEqual(['sandbox', 'production']);
    p.assertDone();
  });

  test('ACCEPT_DEFAULT takes the default of input, confirm and select', async () => {
    const p = fakePrompter(ACCEPT_DEFAULT, ACCEPT_DEFAULT, ACCEPT_DEFAULT, ACCEPT_DEFAULT);
    expect(await p.input({ message: 'Currency', default: 'INR' })).toBe('INR');
    expect(await p.confirm({ message: 'Sure?', default: false })).toBe(false);
    expect(await p.confirm({ message: 'Sure?' })).toBe(true);
    expect(await p.select({ message: 'E', choices: [{ name: 'a', value: 'a' }, { name: 'b', value: 'b' }], default: 'b' })).toBe('b');
    p.assertDone();
  });

  test('fails loudly when the queue is empty, and again at assertDone', async () => {
    const p = fakePrompter();
    await expect(p.input({ message: 'Client ID:' })).rejects.toThrow(/no scripted answer left for input "Client ID:"/);
    expect(() => p.assertDone()).toThrow(FakePrompterError);
  });

  test('runs validate on each answer and fails loudly on a rejection not scripted as such', async () => {
    const p = fakePrompter('');
    const validate = (v: string) => (v === '' ? 'cannot be empty' : true);
    await expect(p.input({ message: 'Name', validate })).rejects.toThrow(/rejected by validate: cannot be empty/);
    expect(() => p.assertDone()).toThrow(/rejected by validate/);
  });

  test('a rejection scripted with rejectedWith re-asks and takes the next answer', async () => {
    const p = fakePrompter({ answer: 'bad', rejectedWith: 'digits only' }, '123');
    const validate = (v: string) => (/^\d+$/.test(v) ? true : 'digits only');
    expect(await p.input({ message: 'Code', validate })).toBe('123');
    expect(p.asked[0]!.rejections).toEqual(['digits only']);
    p.assertDone();
  });

  test('fails when an answer expected to be rejected is accepted', async () => {
    const p = fakePrompter({ answer: '42', rejectedWith: 'digits only' });
    await expect(p.input({ message: 'Code', validate: () => true })).rejects.toThrow(/expected to be rejected/);
  });

  test('checks the kind and message when scripted', async () => {
    const p = fakePrompter({ kind: 'password', answer: 'x' });
    await expect(p.input({ message: 'Client ID:' })).rejects.toThrow(/expected a password question/);
    const q = fakePrompter({ message: /secret/i, answer: 'x' });
    await expect(q.input({ message: 'Client ID:' })).rejects.toThrow(/expected a question matching/);
  });

  test('refuses answers of the wrong type and select values that are not choices', async () => {
    await expect(fakePrompter('yes').confirm({ message: 'Sure?' })).rejects.toThrow(/needs a boolean/);
    await expect(fakePrompter(true).input({ message: 'Name' })).rejects.toThrow(/needs a string/);
    await expect(fakePrompter(ACCEPT_DEFAULT).password({ message: 'Secret' })).rejects.toThrow(/no default/);
    await expect(
      fakePrompter('prod').select({ message: 'Env', choices: [{ name: 'S', value: 'sandbox' }] }),
    ).rejects.toThrow(/not one of/);
  });

  test('an Error answer is thrown at the question (interrupt() simulates Ctrl-C)', async () => {
    const p = fakePrompter(interrupt());
    const err = await p.confirm({ message: 'Sure?' }).catch((e: unknown) => e);
    expect(exitCodeFor(err)).toBe(ExitCode.interrupted);
  });

  test('assertDone reports answers never asked for', () => {
    expect(() => fakePrompter('left', true).assertDone()).toThrow(/2 scripted answer\(s\) never asked for/);
  });
});
