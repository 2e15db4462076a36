// The bulk figure: `pgw payment get --from-file ids.txt` (N look-ups against a running `pgw
// sandbox serve`) against minimal-lookups.mjs, the same GETs over one undici pool, 8 in flight.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, memoryRow } from './stats.mjs';
import { PGW, peakRssRun, timedRun } from './proc.mjs';
import { startSandbox } from './serve.mjs';

const MINIMAL = fileURLToPath(new URL('./minimal-lookups.mjs', import.meta.url));

function paymentIds(stdout) {
  return JSON.parse(stdout).map((p) => p.payment_id);
}

export async function lookupFigures(opts, log) {
  const sandbox = await startSandbox();
  try {
    const ids = sandbox.seed(opts.lookups);
    const file = join(sandbox.dir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const pgw = [process.execPath, PGW, 'payment', 'get', '--from-file', file];
    const minimal = [process.execPath, MINIMAL, file];
    // pgw turns off V8's optimising WebAssembly tier (src/api/agent.ts), which Node otherwise waits
    // for at exit (~100 ms); the plain script pays it. This row gives the script the same start.
    const minimalLiftoff = [process.execPath, '--liftoff-only', MINIMAL, file];
    const env = sandbox.env;

    // Both must fetch every payment, in order, before either is timed.
    for (const argv of [pgw, minimal, minimalLiftoff]) {
      const got = paymentIds(timedRun(argv, { env }).stdout);
      if (got.join() !== ids.join()) throw new Error(`${argv.join(' ')} did not return the ${ids.length} payments in order`);
    }

    log(`look-ups: ${opts.bulkRuns} runs of ${ids.length} look-ups each way`);
    const base = [];
    const baseLiftoff = [];
    const times = [];
    for (let r = 0; r < opts.bulkRuns; r++) {
      base.push(timedRun(minimal, { env }).ms);
      times.push(timedRun(pgw, { env }).ms);
      baseLiftoff.push(timedRun(minimalLiftoff, { env }).ms);
    }
    const baseRss = [];
    const rss = [];
    for (let r = 0; r < opts.memoryRuns; r++) {
      baseRss.push(peakRssRun(minimal, { env }));
      rss.push(peakRssRun(pgw, { env }));
    }
    return {
      times: [
        figure(`${ids.length} look-ups (\`pgw payment get --from-file\`) / the minimal undici script`, times, base, { unit: 'ms', target: 1.0 }),
        figure(`${ids.length} look-ups / the minimal undici script under \`node --liftoff-only\` (for reference)`, times, baseLiftoff, { unit: 'ms' }),
      ],
      memory: [memoryRow(`pgw payment get --from-file ids.txt (${ids.length} IDs, against pgw sandbox serve)`, rss, { label: 'minimal undici script', values: baseRss })],
    };
  } finally {
    await sandbox.stop();
  }
}
