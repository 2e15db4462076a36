// Drives the built binary in a real terminal: a tmux session of a fixed size on a private socket
// (never the developer's own tmux server). What a person sees is read with capture-pane; keys are
// sent with send-keys. Waiting is for text to appear or for the command to end, never for a time:
// `waitFor` polls the screen until its text is there (the test's own time limit bounds it).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from './spawn.js';

export const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;

export interface TmuxSession {
  /** Everything on the screen and in the scroll-back, lines joined where the terminal wrapped them only if `joined`. */
  screen(opts?: { joined?: boolean }): string;
  /** Keys as tmux send-keys takes them: text is typed literally, names (`Enter`, `Down`, `C-c`) are keys. */
  type(text: string): void;
  key(...names: string[]): void;
  /** Polls until `text` (or a match of the pattern) is on the screen; returns the screen. */
  waitFor(text: string | RegExp): Promise<string>;
  /** Waits for the command to end; its exit code (printed by the wrapper as `[exit N]`). */
  exited(): Promise<number>;
  close(): void;
}

let counter = 0;

/**
 * Starts `pgw <args>` in a new tmux session of `columns` × `rows`, with `env` added (NO_COLOR by
 * default so the screen is plain text). The wrapper prints `[exit N]` when pgw ends and keeps the
 * pane open so the last screen can be read.
 */
export function startPgw(args: string[], opts: { env?: Record<string, string>; columns?: number; rows?: number; color?: boolean } = {}): TmuxSession {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-tmux-'));
  const socket = join(dir, 'sock');
  const name = `pgw${process.pid}x${counter++}`;
  const env: Record<string, string> = { ...(opts.color ? {} : { NO_COLOR: '1' }), TERM: 'xterm-256color', ...opts.env };
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}=${quote(v)}`)
    .join('\n');
  // Unset the developer's own pgw settings, as spawnPgw does.
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    `for v in $(env | sed -n 's/^\\(PGW_[A-Z_]*\\)=.*/\\1/p'); do unset "$v"; done\n${exports}\ncd ${quote(ROOT)}\n${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}\necho "[exit $?]"\nexec sleep 600\n`,
  );
  const tmux = (...a: string[]) => execFileSync('tmux', ['-S', socket, ...a], { encoding: 'utf8' });
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(opts.columns ?? 80), '-y', String(opts.rows ?? 40), `sh ${quote(script)}`);
  tmux('set-option', '-t', name, 'history-limit', '5000');
  const screen = (o: { joined?: boolean } = {}) => tmux('capture-pane', '-p', ...(o.joined ? ['-J'] : []), '-S', '-', '-t', name);
  const waitFor = async (text: string | RegExp): Promise<string> => {
    // Gives up (with the screen, to see why) only when the screen has not changed for 1200 looks
    // in a row: pgw is waiting for something this test will never type. Never a timed assertion.
    let last = '';
    let still = 0;
    for (;;) {
      const s = screen();
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
      if (/\[exit \d+\]/.test(s) && !String(text).includes('exit')) throw new Error(`pgw ended before showing ${String(text)}:\n${s}`);
      still = s === last ? still + 1 : 0;
      last = s;
      if (still >= 1200) throw new Error(`the screen stopped changing before showing ${String(text)}:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    screen,
    type: (text) => void tmux('send-keys', '-t', name, '-l', text),
    key: (...names) => void tmux('send-keys', '-t', name, ...names),
    waitFor,
    async exited() {
      const s = await waitFor(/\[exit \d+\]/).catch((err: Error) => {
        throw new Error(`pgw did not end: ${err.message}`);
      });
      return Number(/\[exit (\d+)\]/.exec(s)![1]);
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
