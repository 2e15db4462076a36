// Waiting without the event loop, for the few places that retry a synchronous call (a SQLite
// lock, the profile file's lock, a full non-blocking pipe): the thread sleeps, nothing else runs.
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
