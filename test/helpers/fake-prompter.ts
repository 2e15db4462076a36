// A scripted Prompter for tests: answers come from a queue, every question is recorded, each
// scripted answer goes through the question's `validate`, and anything unexpected fails loudly
// (thrown at the question, and again by assertDone(), since a CLI run turns throws into exit codes).
//
//   const prompter = fakePrompter('my-client-id', 'sk_secret', true);
//   await runCli(['profile', 'add', 'x'], { tty: true, prompter, env });
//   expect(prompter.asked.map((q) => q.kind)).toEqual(['input', 'password', 'confirm']);
//   prompter.assertDone();
import { InterruptedError } from '../../src/errors.js';
import { narrowChoices, type Prompter, type Validate } from '../../src/prompts.js';

export type PromptKind = 'input' | 'password' | 'confirm' | 'select' | 'search';

/** Script this to take the question's default (input, confirm, select). */
export const ACCEPT_DEFAULT: unique symbol = Symbol('accept the default');

/** A value, the default, or an error to throw at the question (see interrupt()). */
export type Answer = string | boolean | Error | typeof ACCEPT_DEFAULT;

export interface ScriptedAnswer {
  answer: Answer;
  /** Fail unless the question is of this kind. */
  kind?: PromptKind;
  /** Fail unless the question's message contains this text (or matches this pattern). */
  message?: string | RegExp;
  /**
   * Expect validate to reject this answer with a message containing this text (or matching it);
   * the question is then asked again, as a real prompt would, and takes the next scripted answer.
   */
  rejectedWith?: string | RegExp;
}

export interface AskedQuestion {
  kind: PromptKind;
  message: string;
  default?: string | boolean;
  choices?: string[];
  /** The accepted answer (absent when the question threw). */
  answer?: string | boolean;
  /** validate's messages for rejected scripted answers, in order. */
  rejections: string[];
}

export class FakePrompterError extends Error {
  override name = 'FakePrompterError';
}

/** What the real prompter throws on Ctrl-C: script it to test interruption (exit 130). */
export function interrupt(): InterruptedError {
  return new InterruptedError('interrupted', { code: 'INTERRUPTED' });
}

function matches(text: string, want: string | RegExp): boolean {
  return typeof want === 'string' ? text.includes(want) : want.test(text);
}

function show(answer: Answer): string {
  if (answer === ACCEPT_DEFAULT) return 'ACCEPT_DEFAULT';
  if (answer instanceof Error) return `${answer.name}(${answer.message})`;
  return JSON.stringify(answer);
}

export class FakePrompter implements Prompter {
  readonly asked: AskedQuestion[] = [];
  readonly failures: string[] = [];
  private readonly queue: ScriptedAnswer[];

  constructor(script: (Answer | ScriptedAnswer)[] = []) {
    this.queue = script.map((item) =>
      typeof item === 'object' && item !== null && !(item instanceof Error) ? item : { answer: item },
    );
  }

  /** Scripted answers not used yet. */
  get remaining(): number {
    return this.queue.length;
  }

  /** Throw if any question failed or scripted answers were left over. */
  assertDone(): void {
    const problems = [...this.failures];
    if (this.queue.length > 0) {
      problems.push(`${this.queue.length} scripted answer(s) never asked for: ${this.queue.map((q) => show(q.answer)).join(', ')}`);
    }
    if (problems.length > 0) throw new FakePrompterError(`fake prompter:\n  ${problems.join('\n  ')}`);
  }

  private fail(message: string): never {
    const text = `fake prompter: ${message}`;
    this.failures.push(text);
    throw new FakePrompterError(text);
  }

  private next(question: AskedQuestion): ScriptedAnswer {
    const item = this.queue.shift();
    if (!item) this.fail(`no scripted answer left for ${question.kind} "${question.message}"`);
    if (item.kind && item.kind !== question.kind) {
      this.fail(`expected a ${item.kind} question, got ${question.kind} "${question.message}"`);
    }
    if (item.message !== undefined && !matches(question.message, item.message)) {
      this.fail(`expected a question matching ${String(item.message)}, got "${question.message}"`);
    }
    if (item.answer instanceof Error) throw item.answer;
    return item;
  }

  /** Take answers until one passes validate; rejected ones must have been scripted as such. */
  private answerText(question: AskedQuestion, validate: Validate | undefined, fallback?: string): string {
    for (;;) {
      const item = this.next(question);
      let value: string;
      if (item.answer === ACCEPT_DEFAULT) {
        if (fallback === undefined) this.fail(`ACCEPT_DEFAULT for ${question.kind} "${question.message}", which has no default`);
        value = fallback;
      } else if (typeof item.answer !== 'string') {
        this.fail(`${question.kind} "${question.message}" needs a string answer, scripted ${show(item.answer)}`);
      } else {
        value = item.answer;
      }
      const verdict = validate ? validate(value) : true;
      if (verdict === true) {
        if (item.rejectedWith !== undefined) {
          this.fail(`answer ${show(item.answer)} to "${question.message}" was expected to be rejected, but validate accepted it`);
        }
        return value;
      }
      question.rejections.push(verdict);
      if (item.rejectedWith === undefined) {
        this.fail(`answer ${show(item.answer)} to "${question.message}" was rejected by validate: ${verdict}`);
      }
      if (!matches(verdict, item.rejectedWith)) {
        this.fail(`answer ${show(item.answer)} to "${question.message}" was rejected with "${verdict}", expected ${String(item.rejectedWith)}`);
      }
    }
  }

  private record(question: Omit<AskedQuestion, 'rejections'>): AskedQuestion {
    const asked: AskedQuestion = { ...question, rejections: [] };
    this.asked.push(asked);
    return asked;
  }

  async input(q: { message: string; default?: string; validate?: Validate }): Promise<string> {
    const asked = this.record({ kind: 'input', message: q.message, default: q.default });
    asked.answer = this.answerText(asked, q.validate, q.default);
    return asked.answer;
  }

  async password(q: { message: string; validate?: Validate }): Promise<string> {
    const asked = this.record({ kind: 'password', message: q.message });
    asked.answer = this.answerText(asked, q.validate);
    return asked.answer;
  }

  async confirm(q: { message: string; default?: boolean }): Promise<boolean> {
    const asked = this.record({ kind: 'confirm', message: q.message, default: q.default });
    const item = this.next(asked);
    let value: boolean;
    if (item.answer === ACCEPT_DEFAULT) value = q.default !== false; // as @inquirer/confirm: default yes
    else if (typeof item.answer === 'boolean') value = item.answer;
    else this.fail(`confirm "${q.message}" needs a boolean answer, scripted ${show(item.answer)}`);
    asked.answer = value;
    return value;
  }

  async select<T extends string>(q: {
    message: string;
    choices: { name: string; value: T; description?: string }[];
    default?: T;
  }): Promise<T> {
    const values = q.choices.map((c) => c.value);
    const asked = this.record({ kind: 'select', message: q.message, default: q.default, choices: values });
    if (q.default !== undefined && !values.includes(q.default)) {
      this.fail(`select "${q.message}" has a default "${q.default}" that is not one of its choices`);
    }
    const item = this.next(asked);
    let value: string;
    if (item.answer === ACCEPT_DEFAULT) {
      const first = q.default ?? values[0];
      if (first === undefined) this.fail(`select "${q.message}" has no choices`);
      value = first;
    } else if (typeof item.answer === 'string') value = item.answer;
    else this.fail(`select "${q.message}" needs a string answer, scripted ${show(item.answer)}`);
    if (!values.includes(value as T)) {
      this.fail(`select "${q.message}": ${JSON.stringify(value)} is not one of ${JSON.stringify(values)}`);
    }
    asked.answer = value;
    return value as T;
  }

  /**
   * A search is scripted like a select (the value chosen), or as `typed:<text>`: what the person
   * types, the first choice left being taken, as Enter would.
   */
  async search<T extends string>(q: { message: string; choices: { name: string; value: T }[]; default?: T; filter?: (term: string) => T[] }): Promise<T> {
    const values = q.choices.map((c) => c.value);
    const asked = this.record({ kind: 'search', message: q.message, default: q.default, choices: values });
    const item = this.next(asked);
    let value: string | undefined;
    if (item.answer === ACCEPT_DEFAULT) value = q.default ?? values[0];
    else if (typeof item.answer === 'string' && item.answer.startsWith('typed:')) {
      const term = item.answer.slice('typed:'.length);
      value = (q.filter && term.trim() !== '' ? q.filter(term) : narrowChoices(q.choices, term, q.default).map((c) => c.value))[0];
    } else if (typeof item.answer === 'string') value = item.answer;
    if (value === undefined || !values.includes(value as T)) this.fail(`search "${q.message}": ${show(item.answer)} gives no choice`);
    asked.answer = value;
    return value as T;
  }
}

export function fakePrompter(...script: (Answer | ScriptedAnswer)[]): FakePrompter {
  return new FakePrompter(script);
}
