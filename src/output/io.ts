// Streams and the terminal facts every renderer asks: decided once, here (GitHub CLI iostreams).
import type { Readable, Writable } from 'node:stream';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export interface IO {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr: only ever on for a terminal, and off with --no-color or NO_COLOR. */
  colorOut: boolean;
  colorErr: boolean;
  /** A person is there to answer: stdin and stdout are terminals and --no-input is not set. */
  canPrompt: boolean;
  out(text: string): void;
  err(text: string): void;
}

export interface IOOptions {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  noColor?: boolean;
  noInput?: boolean;
}

/** Colour is off when asked (flag, NO_COLOR, FORCE_COLOR=0) and never on for a non-terminal. */
export function colorWanted(isTTY: boolean, env: Record<string, string | undefined>, noColorFlag: boolean): boolean {
  if (!isTTY || noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.TERM === 'dumb') return false;
  return true;
}

export function createIO(opts: IOOptions): IO {
  const stdinIsTTY = opts.stdin.isTTY === true;
  const stdoutIsTTY = opts.stdout.isTTY === true;
  const stderrIsTTY = opts.stderr.isTTY === true;
  const noInput = opts.noInput === true || opts.env.PGW_NO_INPUT === '1';
  return {
    stdin: opts.stdin,
    stdout: opts.stdout,
    stderr: opts.stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    colorOut: colorWanted(stdoutIsTTY, opts.env, opts.noColor === true),
    colorErr: colorWanted(stderrIsTTY, opts.env, opts.noColor === true),
    canPrompt: stdinIsTTY && stdoutIsTTY && !noInput,
    out: (text) => void opts.stdout.write(text),
    err: (text) => void opts.stderr.write(text),
  };
}
