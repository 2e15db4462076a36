#!/usr/bin/env node
// The only file that touches the process: everything else returns an exit code.
import module from 'node:module';

module.enableCompileCache?.();
// A checkout before its first `npm install` (whose prepare script builds) has no dist/: one line
// saying what to run, never the loader's stack trace (not-built.js, loaded only then).
let run;
try {
  ({ run } = await import('../dist/main.js'));
} catch (err) {
  const { exitIfNotBuilt } = await import('./not-built.js');
  exitIfNotBuilt(err);
  throw err;
}

// The first Ctrl-C or SIGTERM asks the running command to stop cleanly (sandbox serve closes its
// server and database); a second one ends the process at once.
const stop = new AbortController();
const onSignal = (signal) => {
  if (stop.signal.aborted) process.exit(130);
  stop.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await run(process.argv.slice(2), { signal: stop.signal });
process.exitCode = stop.signal.aborted && code === 0 && stop.signal.reason === 'SIGINT' ? 130 : code;
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
