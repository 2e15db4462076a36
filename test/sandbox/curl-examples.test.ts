// docs/sandbox.md promises curl examples for each operation: this runs that very block with the
// real curl against a server on port 0, filling the placeholders (OD…, PR…, <uid>…) from the
// answers before them, so the documentation cannot drift from the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT } from '../helpers/spawn.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function docBlock(): string {
  const doc = readFileSync(join(ROOT, 'docs/sandbox.md'), 'utf8');
  const start = doc.indexOf('## curl examples');
  const block = /```bash\n([\s\S]*?)```/.exec(doc.slice(start));
  if (!block) throw new Error('no bash block under "## curl examples" in docs/sandbox.md');
  return block[1]!;
}

/** A placeholder becomes a shell variable; inside '…' the quotes are closed around it. */
function substitute(line: string, pattern: RegExp, variable: string): string {
  return line.replace(pattern, (match, offset: number) => {
    const quotesBefore = line.slice(0, offset).split("'").length - 1;
    return quotesBefore % 2 === 1 ? `'"$${variable}"'` : `$${variable}`;
  });
}

/** Placeholders become shell variables that the curl wrapper sets from each answer. */
function runnable(block: string, base: string): string {
  const placeholders: [RegExp, string][] = [
    [/(?<=payment-links\/)PR…/g, 'LINK'],
    [/OD…/g, 'ORDER'],
    [/PR…/g, 'PAYMENT'],
    [/RF…/g, 'REFUND'],
    [/CB…/g, 'CHARGEBACK'],
    [/ST…/g, 'SETTLEMENT'],
    [/<uid>/g, 'SUBSCRIPTION'],
    [/(?<=merchants\/)<id>/g, 'MERCHANT'],
  ];
  return block
    .split('\n')
    .map((line) => {
      if (line.startsWith('BASE=')) return `BASE=${base}`;
      if (line.startsWith('ID=<client_id>')) return 'ID=$MERCHANT_ID_; SECRET=$MERCHANT_SECRET_';
      return placeholders.reduce((text, [pattern, variable]) => substitute(text, pattern, variable), line);
    })
    .join('\n');
}

// A curl that logs "<status> <body>" and sets ORDER, PAYMENT, … from the answer's data.
const WRAPPER = [
  'set -u',
  'curl() {',
  '  local out code',
  "  out=$(command curl -sS -w '\\n%{http_code}' \"$@\")",
  "  code=${out##*$'\\n'}",
  "  out=${out%$'\\n'*}",
  "  printf '%s %s\\n' \"$code\" \"$out\" >> \"$LOG\"",
  '  eval "$(node "$EXTRACT" <<<"$out")"',
  '}',
].join('\n');

const EXTRACT = String.raw`
let text = ''; process.stdin.on('data', (d) => (text += d)).on('end', () => {
  let data; try { data = JSON.parse(text).data; } catch { return; }
  if (!data || typeof data !== 'object') return;
  const set = (name, value) => typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) && console.log(name + '=' + value);
  set('ORDER', data.order_id);
  if (data.link_id) set('LINK', data.link_id); else set('PAYMENT', data.payment_id);
  set('REFUND', data.refund_id); set('CHARGEBACK', data.chargeback_id);
  set('SETTLEMENT', data.settlement_id);
  set('SUBSCRIPTION', data.uid);
  if (data.company_details) set('MERCHANT', data.id);
});`;

describe('docs/sandbox.md curl examples', () => {
  it('every example answers as documented, in order', async () => {
    const dir = h.dir;
    writeFileSync(join(dir, 'extract.cjs'), EXTRACT);
    const log = join(dir, 'curl.log');
    writeFileSync(log, '');
    const script = `${WRAPPER}\n${runnable(docBlock(), h.sandbox.baseUrl)}`;
    // Asynchronous: the sandbox answers from this very process.
    const child = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: {
        ...process.env,
        LOG: log,
        EXTRACT: join(dir, 'extract.cjs'),
        MERCHANT_ID_: h.merchant.client_id,
        MERCHANT_SECRET_: h.merchant.client_secret,
        PSP_ID: h.psp.client_id,
        PSP_SECRET: h.psp.client_secret,
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr, readFileSync(log, 'utf8')).toBe('');
    expect(code).toBe(0);
    const answers = readFileSync(log, 'utf8').trim().split('\n').map((line) => {
      const space = line.indexOf(' ');
      return { status: Number(line.slice(0, space)), body: JSON.parse(line.slice(space + 1)) as { success: boolean; message?: string; data?: any; error?: any } };
    });
    expect(answers.length).toBeGreaterThanOrEqual(20);
    const last = answers.pop()!;
    expect(last.status).toBe(401);
    expect(last.body.error.code).toBe('ERR_AUTH_000');
    // Creates answer 201 (vendor N1, N9, 7.1), everything else 200; the doc says so of the first.
    expect(answers[0]!.status, 'the order create answers 201, as the doc says').toBe(201);
    // The answer the doc shows after the create (`# → {…}`): every key it names, with its value,
    // "…" standing for any (an ID, "OD…", keeps its prefix).
    const shown = JSON.parse(/^# → (\{.*\})$/m.exec(docBlock())![1]!) as Record<string, unknown>;
    const like = (want: unknown, got: unknown, at: string): void => {
      if (typeof want === 'string' && want.endsWith('…')) return void expect(String(got), at).toMatch(new RegExp(`^${want.slice(0, -1)}.`));
      if (want && typeof want === 'object') return void Object.entries(want).forEach(([k, v]) => like(v, (got as Record<string, unknown>)?.[k], `${at}.${k}`));
      expect(got, at).toEqual(want);
    };
    like(shown, answers[0]!.body, 'answer');
    for (const [i, a] of answers.entries()) expect([200, 201], `example ${i + 1}: ${JSON.stringify(a.body)}`).toContain(a.status);
    const marked = answers.find((a) => a.body.message?.includes('marked as settled'))!;
    expect(marked.body.data).toMatchObject({ settlement_amount: '1261.50', settlement_charges: '75.00', settlement_gst: '13.50', forex_rate: '96' });
  });
});
