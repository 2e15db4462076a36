// The single executable's bin (npm run build:sea): what bin/pgw.js does for the npm package, for
// a Node single executable application. Bundled with the sources into one CommonJS file.
import { run } from '../src/main.ts';

// The first Ctrl-C or SIGTERM asks the running command to stop cleanly (sandbox serve closes its
// server and database); a second one ends the process at once.
const stop = new AbortController();
const onSignal = (signal) => {
  if (stop.signal.aborted) process.exit(130);
  stop.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

run(process.argv.slice(2), { signal: stop.signal }).then((code) => {
  process.exitCode = stop.signal.aborted && code === 0 && stop.signal.reason === 'SIGINT' ? 130 : code;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
});
