// The mark-settled figure: POST /pg/settlements/mark-settled/ with a batch of N captured payments
// against a batch of 1, on a running `pgw sandbox serve`, seeded with /sandbox/seed/. Every run
// settles payments nobody settled before, so each run does the whole work (spec 4.6).
import { request } from 'undici';
import { figure, memoryRow } from './stats.mjs';
import { startSandbox } from './serve.mjs';

async function markSettled(sandbox, ids) {
  const started = performance.now();
  const res = await request(`${sandbox.baseUrl}/pg/settlements/mark-settled/`, {
    method: 'POST',
    headers: { ...sandbox.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ payment_uids: ids }),
  });
  const text = await res.body.text();
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`mark-settled of ${ids.length}: HTTP ${res.statusCode}: ${text.slice(0, 500)}`);
  return ms;
}

export async function settleFigures(opts, log) {
  const sandbox = await startSandbox();
  let result;
  let peak;
  try {
    const ids = sandbox.seed((opts.settleRuns + 1) * (opts.batch + 1));
    let next = 0;
    const take = (n) => ids.slice(next, (next += n));
    // One of each first (warm statements and pages), not counted.
    await markSettled(sandbox, take(opts.batch));
    await markSettled(sandbox, take(1));
    log(`mark-settled: ${opts.settleRuns} runs of ${opts.batch} payments and of 1`);
    const big = [];
    const one = [];
    for (let r = 0; r < opts.settleRuns; r++) {
      one.push(await markSettled(sandbox, take(1)));
      big.push(await markSettled(sandbox, take(opts.batch)));
    }
    result = figure(`mark-settled of ${opts.batch} payments / of 1 payment`, big, one, { unit: 'ms', target: 20 });
  } finally {
    peak = await sandbox.stop();
  }
  return { times: [result], memory: [memoryRow(`pgw sandbox serve (seeding ${(opts.settleRuns + 1) * (opts.batch + 1)} payments, then the mark-settled runs)`, [peak])] };
}
