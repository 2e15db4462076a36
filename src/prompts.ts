// Questions to a person, through @inquirer/prompts on the injected streams: input from io.stdin,
// the prompt drawn on io.stderr so stdout stays data only. Only when a person is there
// (io.canPrompt: stdin and stdout are terminals and no --no-input); otherwise every question
// refuses with exit 2. @inquirer/prompts is imported on the first question, not before.
import { Writable } from 'node:stream';
import type { IO, OutStream } from './output/io.js';
import type { ChalkInstance } from 'chalk';
import { InterruptedError, UsageError } from './errors.js';
import { createTheme, loadColor } from './output/theme.js';

export type Validate = (value: string) => true | string;

export interface Prompter {
  input(q: { message: string; default?: string; validate?: Validate }): Promise<string>;
  /** Masked: typed characters show as `*`, never in clear; there is no key to reveal them. */
  password(q: { message: string; validate?: Validate }): Promise<string>;
  confirm(q: { message: string; default?: boolean }): Promise<boolean>;
  select<T extends string>(q: {
    message: string;
    choices: { name: string; value: T; description?: string }[];
    default?: T;
  }): Promise<T>;
  /**
   * A choice found by typing: the list narrows to the choices whose name holds what is typed (any
   * case), those starting with it first; `filter` replaces that rule. Enter takes the highlighted
   * one; with nothing typed the default (if any) comes first.
   */
  search<T extends string>(q: {
    message: string;
    choices: { name: string; value: T }[];
    default?: T;
    filter?: (term: string) => T[];
  }): Promise<T>;
}

/** Choices narrowed to what is typed: names holding the text (any case), those starting with it first. */
export function narrowChoices<T extends string>(choices: { name: string; value: T }[], term: string, defaultValue?: T): { name: string; value: T }[] {
  const t = term.trim().toLowerCase();
  if (t === '') {
    const first = choices.filter((c) => c.value === defaultValue);
    return [...first, ...choices.filter((c) => c.value !== defaultValue)];
  }
  const hits = choices.filter((c) => c.name.toLowerCase().includes(t));
  return [...hits.filter((c) => c.name.toLowerCase().startsWith(t)), ...hits.filter((c) => !c.name.toLowerCase().startsWith(t))];
}

/** The message of the exit-2 refusal when nobody can answer (other verbs may match on its start). */
export function cannotPrompt(message: string): UsageError {
  return new UsageError(
    `cannot prompt for "${message.replace(/[:?]\s*$/, '')}": not a terminal, or --no-input / PGW_NO_INPUT=1 is set; pass the value with flags instead`,
    { code: 'CANNOT_PROMPT' },
  );
}

/** Ctrl-C at a prompt (@inquirer's ExitPromptError) is an interruption: exit 130, not a failure. */
function interrupted(err: unknown): never {
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
    throw new InterruptedError('interrupted', { code: 'INTERRUPTED' });
  }
  throw err;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * @inquirer's own look (symbols, brackets, colours), drawn with pgw's colour decision for stderr
 * (io.ts: --no-color, NO_COLOR, a pipe) instead of its own reading of the environment.
 */
function inquirerTheme(c: ChalkInstance) {
  return {
    prefix: { idle: c.blue('?'), done: c.green('✔') },
    spinner: { interval: 80, frames: SPINNER.map((frame) => c.yellow(frame)) },
    style: {
      answer: (text: string) => c.cyan(text),
      message: (text: string) => c.bold(text),
      error: (text: string) => c.red(`> ${text}`),
      defaultAnswer: (text: string) => c.dim(`(${text})`),
      help: (text: string) => c.dim(text),
      highlight: (text: string) => c.cyan(text),
      key: (text: string) => c.cyan(c.bold(`<${text}>`)),
      description: (text: string) => c.cyan(text),
      disabled: (text: string) => c.dim(`- ${text}`),
      keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${c.bold(key)} ${c.dim(action)}`).join(c.dim(' • ')),
    },
  };
}

/**
 * What @inquirer draws on: io.stderr behind a stream of its own. @inquirer pipes into its output
 * and ends it when a prompt closes; Node never ends process.stderr that way, but a stream given to
 * run() (an embedding, the tests) would be ended, and pgw's next line on stderr (a select's answer
 * line, any message after a prompt) written after its end. Terminal facts are read through.
 */
function drawOn(stream: OutStream): Writable {
  const w = new Writable({
    write: (chunk: Buffer, encoding: BufferEncoding, done: (err?: Error | null) => void) => void stream.write(chunk, encoding, done),
  });
  for (const key of ['isTTY', 'columns', 'rows'] as const) {
    Object.defineProperty(w, key, { get: () => (stream as unknown as Record<string, unknown>)[key], configurable: true });
  }
  return w;
}

export function createPrompter(io: IO): Prompter {
  // A fresh output for each prompt: the one a prompt ends is not drawn on again.
  const context = () => ({ input: io.stdin, output: drawOn(io.stderr), clearPromptOnDone: false });
  let theme: ReturnType<typeof inquirerTheme> | undefined;
  const ask = async <T>(message: string, fn: (p: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> => {
    if (!io.canPrompt) throw cannotPrompt(message);
    if (io.colorErr) await loadColor();
    theme ??= inquirerTheme(createTheme(io.colorErr).chalk);
    const prompts = await import('@inquirer/prompts');
    try {
      return await fn(prompts);
    } catch (err) {
      return interrupted(err);
    }
  };

  // A list drawn for a select or search is cleared when the prompt ends, Ctrl-C included (issue
  // 22 item 11: @inquirer leaves the whole menu on screen when interrupted); after an answer the
  // one line @inquirer would have left (`✔ question answer`) is written back.
  const listContext = () => ({ ...context(), clearPromptOnDone: true });
  const answered = (message: string, name: string) => {
    const c = createTheme(io.colorErr).chalk;
    io.err(`${c.green('✔')} ${c.bold(message)} ${c.cyan(name)}\n`);
  };

  return {
    input: (q) =>
      ask(q.message, (p) =>
        p.input({ message: q.message, default: q.default, validate: q.validate, theme }, context()),
      ),
    password: (q) =>
      ask(q.message, (p) => p.password({ message: q.message, mask: true, validate: q.validate, theme }, context())),
    confirm: (q) => ask(q.message, (p) => p.confirm({ message: q.message, default: q.default, theme }, context())),
    search: <T extends string>(q: { message: string; choices: { name: string; value: T }[]; default?: T; filter?: (term: string) => T[] }) =>
      ask(q.message, (p) =>
        p.search<T>(
          {
            message: q.message,
            source: async (term) => {
              if (q.filter === undefined || (term ?? '').trim() === '') return narrowChoices(q.choices, term ?? '', q.default);
              const byValue = new Map(q.choices.map((c) => [c.value, c]));
              return q.filter(term ?? '').flatMap((v) => (byValue.has(v) ? [byValue.get(v)!] : []));
            },
            pageSize: 10,
            theme,
          },
          listContext(),
        ).then((value) => {
          answered(q.message, q.choices.find((c) => c.value === value)?.name ?? value);
          return value;
        }),
      ),
    select: <T extends string>(q: {
      message: string;
      choices: { name: string; value: T; description?: string }[];
      default?: T;
    }) =>
      ask(q.message, (p) =>
        p.select<T>(
          {
            message: q.message,
            choices: q.choices.map((c) => ({ name: c.name, value: c.value, description: c.description })),
            default: q.default,
            theme,
          },
          listContext(),
        ).then((value) => {
          answered(q.message, q.choices.find((c) => c.value === value)?.name ?? value);
          return value;
        }),
      ),
  };
}
