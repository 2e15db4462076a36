// Questions to a person, through @inquirer/prompts on the injected streams: input from io.stdin,
// the prompt drawn on io.stderr so stdout stays data only. Only when a person is there
// (io.canPrompt: stdin and stdout are terminals and no --no-input); otherwise every question
// refuses with exit 2. @inquirer/prompts is imported on the first question, not before.
import type { IO } from './output/io.js';
import { InterruptedError, UsageError } from './errors.js';

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

const plain = (text: string): string => text;

/**
 * @inquirer's look without colour, for a stderr where pgw does not colour (--no-color, NO_COLOR):
 * its own default takes colour from the environment alone. Same symbols and brackets, no SGR codes.
 */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain,
    message: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: plain,
    highlight: plain,
    key: (text: string) => `<${text}>`,
    description: plain,
    disabled: (text: string) => `- ${text}`,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};

export function createPrompter(io: IO): Prompter {
  const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  const theme = io.colorErr ? undefined : PLAIN_THEME;
  const ask = async <T>(message: string, fn: (p: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> => {
    if (!io.canPrompt) throw cannotPrompt(message);
    const prompts = await import('@inquirer/prompts');
    try {
      return await fn(prompts);
    } catch (err) {
      return interrupted(err);
    }
  };

  return {
    input: (q) =>
      ask(q.message, (p) =>
        p.input({ message: q.message, default: q.default, validate: q.validate, theme }, context),
      ),
    password: (q) =>
      ask(q.message, (p) => p.password({ message: q.message, mask: true, validate: q.validate, theme }, context)),
    confirm: (q) => ask(q.message, (p) => p.confirm({ message: q.message, default: q.default, theme }, context)),
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
          context,
        ),
      ),
  };
}
