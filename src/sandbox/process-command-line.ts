// Whether a process of this machine is a `pgw sandbox serve`, read from its command line (issue 44
// item 8: a serve record naming a live process id is trusted only when that process is a serve).
// Linux gives every process's argv in /proc/<pid>/cmdline (NUL-separated, readable by anyone);
// other Unix systems through `ps -o command=` (only when a record names a live process, so a
// look-up pays for it only while a serve runs); Windows offers no cheap way, and answers "unknown".

/** argv of `pid`, or undefined when this system cannot tell (or the process is gone). */
export function commandLineOf(pid: number): string[] | undefined {
  if (process.platform === 'linux') {
    try {
      const raw = process.getBuiltinModule('node:fs').readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return raw.split('\0').filter((arg) => arg !== '');
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'win32') return undefined;
  const r = process.getBuiltinModule('node:child_process').spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const line = r.status === 0 ? r.stdout.trim() : '';
  // ps joins argv with spaces: a path with a space in it splits, which only loses the match.
  return line === '' ? undefined : line.split(/\s+/);
}

/**
 * pgw (bin/pgw.js, a `pgw` link to it, the single executable build/sea/pgw) running
 * `sandbox serve`, global options before them or not: `node /usr/lib/node_modules/pgw-cli/bin/pgw.js
 * sandbox serve --port 0`, `/usr/local/bin/pgw -p local sandbox serve`.
 */
export function isPgwServe(argv: readonly string[]): boolean {
  const program = argv.findIndex((arg) => /(^|[/\\])pgw(\.js)?$/.test(arg));
  if (program === -1) return false;
  for (let i = program + 1; i < argv.length - 1; i++) if (argv[i] === 'sandbox' && argv[i + 1] === 'serve') return true;
  return false;
}
