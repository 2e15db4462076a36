// Time for measuring, without the global `performance`: its first use loads Node's perf_hooks
// internals, 1–3 ms of a `pgw payment get` that takes ~65 (issue 23). process.hrtime is already
// loaded by Node's own start-up.

/** Milliseconds on a monotonic clock (for durations: the difference of two readings). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The machine's epoch at the first reading, in µs, fixed for the process: wall time = anchor + monotonic. */
let anchor: { wallMicros: number; monoMicros: number } | undefined;

/**
 * The machine's wall clock in epoch microseconds, advancing monotonically from the process's first
 * reading (as performance.timeOrigin + performance.now() does): a clock step while running does
 * not move it backwards.
 */
export function wallMicros(): number {
  const mono = Number(process.hrtime.bigint() / 1000n);
  anchor ??= { wallMicros: Date.now() * 1000, monoMicros: mono };
  return anchor.wallMicros + (mono - anchor.monoMicros);
}
