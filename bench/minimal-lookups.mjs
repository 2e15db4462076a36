// The baseline of the bulk look-up figure: the same GETs pgw makes, over one undici pool with 8 in
// flight, printing the same JSON array. No retries, no validation, no rendering: the floor.
// node bench/minimal-lookups.mjs ids.txt  (PGW_BASE_URL, PGW_CLIENT_ID, PGW_CLIENT_SECRET)
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const ids = readFileSync(process.argv[2], 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
const pool = new Pool(new URL(process.env.PGW_BASE_URL).origin, { connections: 8 });
const headers = {
  accept: 'application/json',
  'x-client-id': process.env.PGW_CLIENT_ID,
  'x-client-secret': process.env.PGW_CLIENT_SECRET,
  'x-api-version': '3.0.0',
};
const results = new Array(ids.length);
let next = 0;

async function worker() {
  while (next < ids.length) {
    const i = next++;
    const res = await pool.request({ method: 'GET', path: `/pg/payments/${ids[i]}/`, headers });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${ids[i]}: HTTP ${res.statusCode}`);
    results[i] = body.data;
  }
}

await Promise.all(Array.from({ length: Math.min(8, ids.length) }, worker));
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
await pool.close();
