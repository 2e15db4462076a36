// Every test file notes the CPU time it cost (its worker and every child process it started and
// reaped: spawned pgw binaries, servers, bash blocks) in its meta, for the slowest-files table that
// `npm test` prints (scripts/test-profile.mjs). CPU, not wall time: the machines are shared, and a
// file's wall time says as much about its neighbours as about the file.
import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    cpuMs?: number;
  }
}

/** This process's CPU time and its reaped children's, in ms (Linux: /proc; elsewhere undefined). */
function cpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name's ')': state is field 3; utime, stime, cutime, cstime are 14–17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks * 10; // USER_HZ is 100 on every Linux that Node supports
  } catch {
    return undefined;
  }
}

const start = cpuMs();
afterAll(({}, file) => {
  const end = cpuMs();
  if (start !== undefined && end !== undefined) file.meta.cpuMs = end - start;
});
