// Streams and the terminal facts every renderer asks: decided once, here (GitHub CLI iostreams).
import type { Readable, Writable } from 'node:stream';
import type { TextSink } from './fd-output.js';
import type { ReleasedText } from './guard.js';
import { terminalSafe } from '../safety/terminal-text.js';
import { wrapMessages } from './fold.js';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
/** Standard output: text only (fd-output.ts writes it without a stream when it can). */
export type DataSink = TextSink;

/** A stream, or how to get it: process streams are created on first use (each costs ~2-4 ms). */
export type Lazy<T> = T | (() => T);

export interface IO {
  readonly stdin: InStream;
  readonly stdout: DataSink;
  readonly stderr: OutStream;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Colour on stdout / stderr: only ever on for a terminal, and off with --no-color or NO_COLOR. */
  readonly colorOut: boolean;
  readonly colorErr: boolean;
  /** A person is there to answer: stdin and stdout are terminals and --no-input is not set. */
  readonly canPrompt: boolean;
  /**
   * Width tables and help must fit on stdout: the terminal's columns, else COLUMNS, else 80; none
   * (undefined) when stdout is a pipe or a file, where nothing wraps.
   */
  readonly columns: number | undefined;
  /**
   * Whoever read stdout has gone (`pgw listen | head -1`): a command that would otherwise run
   * until interrupted stops. Only a pipe or socket can tell; a terminal never says so.
   */
  readonly stdoutReaderGone: boolean;
  /** Data to stdout and messages to stderr, through the guard, and terminal-safe on a terminal. */
  out(text: string): void;
  err(text: string): void;
  /** Lines for a person on stderr (ctx.log): as err(), every line folded on a terminal, not only labelled ones. */
  errMessage(text: string): void;
  /**
   * Text pgw made from its own constants (a --print-template body with the sandbox's public test
   * card and an example CVV): not through the guard, which would mask the example.
   */
  outOwn(text: string): void;
  /** `pgw sandbox env`'s lines, which the guard has already passed whole (guard.releaseSandboxCredentials). */
  outReleased(text: ReleasedText): void;
  /** JSON text of data that clean() has already been through: only the run's known secrets and cards are hunted again. */
  outData(text: string): void;
  /** pgw's own cursor control on stderr (a progress bar's \r): through the guard, not stripped. */
  errStatus(text: string): void;
  /** Data about to be printed as JSON, through the guard (secret, card numbers, CVVs). */
  clean<T>(data: T): T;
}

/** What every printed text and every JSON result passes through (guard.ts); identity when absent. */
export interface TextGuard {
  text(input: string): string;
  known(input: string): string;
  data<T>(value: T): T;
}

export interface IOOptions {
  stdin: Lazy<InStream>;
  stdout: Lazy<DataSink>;
  stderr: Lazy<OutStream>;
  /** Known without the stream (a file or a pipe is never a terminal): saves creating it. */
  stderrIsTTY?: boolean;
  env: Record<string, string | undefined>;
  noColor?: boolean;
  noInput?: boolean;
  guard?: TextGuard;
}

/** Colour is off when asked (flag, NO_COLOR, FORCE_COLOR=0) and never on for a non-terminal. */
export function colorWanted(isTTY: boolean, env: Record<string, string | undefined>, noColorFlag: boolean): boolean {
  if (!isTTY || noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.TERM === 'dumb') return false;
  return true;
}

const NO_GUARD: TextGuard = { text: (t) => t, known: (t) => t, data: (d) => d };

/** Terminal-safe only when the stream is a terminal: a file or pipe gets the bytes as they are. */
function onTerminal(text: string, isTTY: boolean, color: () => boolean): string {
  return isTTY ? terminalSafe(text, color()) : text;
}

function once<T>(get: Lazy<T>): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = typeof get === 'function' ? (get as () => T)() : get;
      made = true;
    }
    return value as T;
  };
}

/**
 * Every fact is worked out on first use and then kept: a command that never reads stdin never
 * creates process.stdin, and a piped run that writes nothing to stderr never creates process.stderr.
 */
export function createIO(opts: IOOptions): IO {
  const stdin = once(opts.stdin);
  const stdout = once(opts.stdout);
  const stderr = once(opts.stderr);
  const stdinIsTTY = once(() => stdin().isTTY === true);
  const stdoutIsTTY = once(() => stdout().isTTY === true);
  const stderrIsTTY = once(() => opts.stderrIsTTY ?? stderr().isTTY === true);
  const noColor = opts.noColor === true;
  const noInput = opts.noInput === true || opts.env.PGW_NO_INPUT === '1';
  const guard = opts.guard ?? NO_GUARD;
  // On a terminal, error, hint, warning and note lines fold at spaces to its width (a terminal
  // would cut them mid-word); a pipe gets each as one line, for the scripts that grep it.
  const writeErr = (text: string, everyLine: boolean) => {
    const safe = onTerminal(guard.text(text), stderrIsTTY(), () => colorWanted(true, opts.env, noColor));
    void stderr().write(stderrIsTTY() ? wrapMessages(safe, terminalColumns(stderr().columns, opts.env), { everyLine }) : safe);
  };
  return {
    get stdin() {
      return stdin();
    },
    get stdout() {
      return stdout();
    },
    get stderr() {
      return stderr();
    },
    get stdinIsTTY() {
      return stdinIsTTY();
    },
    get stdoutIsTTY() {
      return stdoutIsTTY();
    },
    get stderrIsTTY() {
      return stderrIsTTY();
    },
    get colorOut() {
      return colorWanted(stdoutIsTTY(), opts.env, noColor);
    },
    get colorErr() {
      return colorWanted(stderrIsTTY(), opts.env, noColor);
    },
    get canPrompt() {
      return !noInput && stdoutIsTTY() && stdinIsTTY();
    },
    get stdoutReaderGone() {
      return stdout().readerGone === true;
    },
    get columns() {
      if (!stdoutIsTTY()) return undefined;
      return terminalColumns(stdout().columns, opts.env);
    },
    out: (text) => void stdout().write(onTerminal(guard.text(text), stdoutIsTTY(), () => colorWanted(true, opts.env, noColor))),
    err: (text) => writeErr(text, false),
    errMessage: (text) => writeErr(text, true),
    outData: (text) => void stdout().write(onTerminal(guard.known(text), stdoutIsTTY(), () => colorWanted(true, opts.env, noColor))),
    outReleased: (text) => void stdout().write(onTerminal(text, stdoutIsTTY(), () => colorWanted(true, opts.env, noColor))),
    outOwn: (text) => void stdout().write(onTerminal(text, stdoutIsTTY(), () => colorWanted(true, opts.env, noColor))),
    errStatus: (text) => void stderr().write(guard.text(text)),
    clean: (data) => guard.data(data),
  };
}

/** A terminal's width: what it says, else $COLUMNS, else 80 (the contract's "unknown"). */
export function terminalColumns(reported: number | undefined, env: Record<string, string | undefined>): number {
  if (reported !== undefined && reported > 0) return reported;
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}
