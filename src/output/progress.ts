// A progress bar on stderr, only on a terminal and only when there are enough items to wait for.
import type { IO } from './io.js';

export interface Progress {
  tick(): void;
  done(): void;
}

const NOOP: Progress = { tick() {}, done() {} };
const MIN_ITEMS = 10;
const WIDTH = 24;

export function startProgress(io: IO, total: number, label: string): Progress {
  if (!io.stderrIsTTY || total < MIN_ITEMS) return NOOP;
  let count = 0;
  let last = 0;
  const draw = (): void => {
    const filled = Math.round((count / total) * WIDTH);
    io.errStatus(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${count}/${total}`);
  };
  draw();
  return {
    tick() {
      count++;
      const now = Date.now();
      if (count === total || now - last > 50) {
        last = now;
        draw();
      }
    },
    done() {
      io.errStatus(`\r${' '.repeat(label.length + WIDTH + 16)}\r`);
    },
  };
}
