// pgw against a fault server, through the real binary or in-process (the same command line, the
// same result): the commands the fault suite drives, and what every failure must look like (one
// error line, no stack trace, the contract's JSON error shape).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnPgw, type SpawnResult } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

export const SECRET = 'fault-suite-secret-7f3a9c21';
export const CLIENT_ID = 'fault-suite-client';

/** The suites run the built bundle: say so plainly instead of failing every test obscurely. */
export function requireBuild(): void {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
}

export interface Command {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  args: (dir: string) => string[];
}

/** A valid v3 create-order body (spec 2.1), so order create gets as far as sending. */
export const ORDER_BODY = {
  amount: '1500.00',
  currency: 'INR',
  reference_id: 'fault-suite-ref-1',
  return_url: 'https://merchant.example/return',
  buyer: {
    name: 'Asha Verma',
    email: 'asha@example.com',
    phone: '+919876543210',
    address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
  },
  product: { name: 'Scarf', type_of_goods: 'physical_goods', hs_code: '62141000' },
  invoice: { number: 'INV-1', date: '2026-01-15' },
};

export const COMMANDS: Command[] = [
  { name: 'payment get', method: 'GET', args: () => ['payment', 'get', 'PR0000000001'] },
  { name: 'settle get', method: 'GET', args: () => ['settle', 'get', 'ST0000000001'] },
  { name: 'merchant list', method: 'GET', args: () => ['merchant', 'list'] },
  { name: 'order create', method: 'POST', args: (dir) => ['order', 'create', '--file', join(dir, 'order.json')] },
  { name: 'order update', method: 'PATCH', args: () => ['order', 'update', 'OD0000000001', '--invoice-number', 'INV-42'] },
];

/** A fresh config directory holding the order body file. */
export function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-faults-'));
  writeFileSync(join(dir, 'order.json'), JSON.stringify(ORDER_BODY));
  return dir;
}

export function runAgainst(
  base: string,
  args: string[],
  opts: { dir: string; timeoutMs: number; mode: 'table' | 'json'; extra?: string[]; secret?: string; clientId?: string; inProcess?: boolean },
): Promise<SpawnResult> {
  const argv = [...args, '-o', opts.mode, '--timeout', String(opts.timeoutMs), ...(opts.extra ?? [])];
  const env = {
    PGW_CONFIG_DIR: opts.dir,
    PGW_BASE_URL: base,
    PGW_CLIENT_ID: opts.clientId ?? CLIENT_ID,
    PGW_CLIENT_SECRET: opts.secret ?? SECRET,
  };
  return opts.inProcess ? pgwInProcess(argv, { env }) : spawnPgw(argv, { env, timeoutMs: 60_000 });
}

/**
 * What a failure must look like: nothing on stdout; in table mode one `error:` line (and at most a
 * `hint:` line); in JSON mode one line `{"error":{code,message,details,status}}`. Never a stack
 * trace, never the secret, never the raw HTML of a proxy page. Returns the error message.
 */
export function failureMessage(r: SpawnResult, mode: 'table' | 'json'): string {
  const problems: string[] = [];
  if (r.stdout !== '') problems.push(`stdout is not empty: ${r.stdout.slice(0, 200)}`);
  if (r.stderr.includes('\n    at ')) problems.push('a stack trace on stderr');
  if (r.stderr.includes(SECRET)) problems.push('the secret on stderr');
  if (/<\/?(!doctype|html|head|body|title|h1|center|hr)\b/i.test(r.stderr) || r.stderr.includes('nginx')) problems.push('a page dumped on stderr');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  let message = '';
  if (mode === 'json') {
    if (lines.length !== 1) problems.push(`${lines.length} lines on stderr, expected 1`);
    try {
      const parsed = JSON.parse(lines[0] ?? '') as { error?: Record<string, unknown> };
      const keys = Object.keys(parsed.error ?? {}).sort();
      if (Object.keys(parsed).join() !== 'error' || keys.join() !== 'code,details,message,status') {
        problems.push(`not the JSON error shape: ${lines[0]}`);
      }
      message = String(parsed.error?.message);
    } catch {
      problems.push(`stderr is not JSON: ${lines[0]}`);
    }
  } else {
    if (!lines[0]?.startsWith('error: ')) problems.push(`first line is not "error: ...": ${lines[0]}`);
    if (lines.length > 2 || (lines.length === 2 && !lines[1]!.startsWith('hint: '))) problems.push(`more than one error line:\n${r.stderr}`);
    message = (lines[0] ?? '').replace(/^error: /, '');
  }
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\n--- stderr ---\n${r.stderr}`);
  return message;
}
