// Throughput figures: the sandbox server's requests per second for GET payment and create order,
// each against a bare node:http server answering a fixed JSON body (the same payment's bytes),
// measured with autocannon (10 connections), rounds interleaved.
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { figure, memoryRow } from './stats.mjs';
import { PGW, cleanEnv, startJsonServer, timedRun } from './proc.mjs';
import { startSandbox } from './serve.mjs';

const BARE = fileURLToPath(new URL('./bare-server.mjs', import.meta.url));
const CONNECTIONS = 10;

/** Requests per second of one autocannon run; any error or non-2xx answer fails the benchmark. */
async function rps(name, opts) {
  const result = await autocannon({ connections: CONNECTIONS, ...opts });
  const completed = Object.values(result.statusCodeStats ?? {}).reduce((n, s) => n + Number(s.count), 0);
  if (result.errors > 0 || result.non2xx > 0 || completed === 0) {
    throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)})`);
  }
  return completed / result.duration;
}

async function okText(res, what) {
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${what}: HTTP ${res.statusCode}: ${text}`);
  return text;
}

async function measure(sandbox, logged, bare, opts, log) {
  const [paymentId] = sandbox.seed(1);
  const getPath = `/pg/payments/${paymentId}/`;
  const [loggedPaymentId] = logged.seed(1);
  const paymentBody = await okText(await request(`${sandbox.baseUrl}${getPath}`, { headers: sandbox.headers }), 'GET payment');
  const bareUrl = (await bare.start(paymentBody)).base_url;

  // The product's own example order, with a reference_id unique per request (spec 2.1).
  const order = JSON.parse(timedRun([process.execPath, PGW, 'order', 'create', '--print-template'], { env: sandbox.env }).stdout);
  order.reference_id = 'bench-[<id>]';
  const targets = {
    bare: { url: `${bareUrl}${getPath}` },
    get: { url: `${sandbox.baseUrl}${getPath}`, headers: sandbox.headers },
    getLogged: { url: `${logged.baseUrl}/pg/payments/${loggedPaymentId}/`, headers: logged.headers },
    create: {
      url: `${sandbox.baseUrl}/pg/orders/`,
      method: 'POST',
      headers: { ...sandbox.headers, 'content-type': 'application/json' },
      body: JSON.stringify(order),
      idReplacement: true,
    },
  };
  if (opts.warmupSeconds > 0) {
    for (const [name, target] of Object.entries(targets)) await rps(`${name} (warm-up)`, { ...target, duration: opts.warmupSeconds });
  }

  log(`throughput: ${opts.rounds} rounds of ${opts.duration} s per target`);
  const runs = { bare: [], get: [], getLogged: [], create: [] };
  for (let r = 0; r < opts.rounds; r++) {
    for (const [name, target] of Object.entries(targets)) runs[name].push(await rps(name, { ...target, duration: opts.duration }));
  }
  return runs;
}

export async function throughputFigures(opts, log) {
  const sandbox = await startSandbox();
  // The same server as a developer runs it, logging each request on stderr (issue 15).
  const logged = await startSandbox({ requestLog: true });
  let server;
  const bare = {
    async start(body) {
      server = startJsonServer([process.execPath, BARE], { env: cleanEnv({ BENCH_BODY: body }) });
      return server.info;
    },
  };
  let runs;
  let peaks;
  try {
    runs = await measure(sandbox, logged, bare, opts, log);
  } finally {
    peaks = await Promise.all([sandbox.stop(), server?.stop(), logged.stop()]);
  }
  const [servePeak, barePeak] = peaks;
  return {
    times: [
      figure('sandbox GET payment throughput / bare node:http', runs.get, runs.bare, { unit: 'req/s', target: 0.6, lowerIsBetter: false }),
      figure('sandbox create order throughput / bare node:http', runs.create, runs.bare, { unit: 'req/s', target: 0.15, lowerIsBetter: false }),
      figure('sandbox GET payment throughput with the request log on (the default) / bare node:http (for reference)', runs.getLogged, runs.bare, { unit: 'req/s', lowerIsBetter: false }),
    ],
    memory: [memoryRow('pgw sandbox serve (GET payment and create order under autocannon)', [servePeak], { label: 'bare node:http server', values: [barePeak] })],
  };
}
