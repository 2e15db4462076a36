import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.PGW_TRACE_FILE) appendFileSync(process.env.PGW_TRACE_FILE, `${url}\n`);
  return nextLoad(url, context);
}
