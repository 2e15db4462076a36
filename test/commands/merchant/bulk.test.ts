// Bulk onboarding against the sandbox: validation first, one at a time with a results file,
// interruption (a gateway failing at line k through MockAgent, Ctrl-C in flight) and --resume
// finishing the run with every merchant created exactly once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { MockAgent } from 'undici';
import { fakePrompter } from '../../helpers/fake-prompter.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { fileHasNoSecret, jsonl, merchantBody, noSubMerchants, readJsonl, readRecords, useSandbox } from './helpers.js';

const sb = useSandbox();

const brands = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
const bodies = (prefix: string, n: number) => brands(prefix, n).map((b) => merchantBody(b));

/** How many sub-merchants carry each brand of the prefix. */
async function countsOf(prefix: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const m of await sb.subMerchants()) if (m.brand_name.startsWith(`${prefix} `)) counts[m.brand_name] = (counts[m.brand_name] ?? 0) + 1;
  return counts;
}
const once = (prefix: string, n: number) => Object.fromEntries(brands(prefix, n).map((b) => [b, 1]));

let agent: MockAgent | undefined;
afterEach(async () => {
  agent?.assertNoPendingInterceptors();
  await agent?.close();
  agent = undefined;
});

describe('bulk create from JSON Lines', () => {
  it('creates each line, records each result as it happens (0600), prints a summary table; progress on a terminal', async () => {
    const input = sb.file('ok.jsonl', jsonl(bodies('Ok', 10)));
    const results = `${sb.dir}/ok-results.jsonl`;
    const r = await sb.pgw(['merchant', 'create', '--file', input, '--results', results], { tty: true });
    expect(r.code).toBe(0);
    expect(await countsOf('Ok')).toEqual(once('Ok', 10));
    const lines = readJsonl(results);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toEqual({ line: 1, brand_name: 'Ok 1', hash: expect.stringMatching(/^sha256:[0-9a-f]{32}$/), id: expect.stringMatching(/^[0-9]+$/) });
    // Each request is preceded by its attempt, on disk before it is sent (issue 21 item 4).
    const records = readRecords(results).filter((r) => r.account === undefined);
    expect(records).toHaveLength(20);
    records.forEach((r, i) => expect(r.attempt === true, `record ${i + 1}`).toBe(i % 2 === 0));
    expect(records[0]).toEqual({ line: 1, brand_name: 'Ok 1', hash: lines[0].hash, attempt: true });
    expect(statSync(results).mode & 0o777).toBe(0o600);
    fileHasNoSecret(results, sb.secret);
    expect(r.stdout).toMatch(/line\s.*brand\s.*status\s.*id \/ error/);
    expect(r.stdout).toContain('Ok 10');
    expect(r.stderr).toContain('creating sub-merchants [');
    expect(r.stderr).toContain(`${input}: 10 created (10 lines)`);
    // Created PENDING: the next step is the KYC, on the same account's flags (issue 42 item 4).
    expect(r.stderr.replace(/ \\\n\s*/g, ' ')).toMatch(new RegExp(`next: pgw -p \\S+ sandbox merchant kyc ${lines[0].id} APPROVED`));
  });

  it('a JSON array works too; JSON output is the array of results', async () => {
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('arr.json', JSON.stringify(bodies('Arr', 3))), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual(brands('Arr', 3).map((b, i) => ({ line: i + 1, brand_name: b, status: 'created', id: expect.stringMatching(/^[0-9]+$/) })));
    expect(r.stderr).toBe(''); // JSON mode, all created: nothing to say
  });

  it('any invalid line stops the whole file before anything is sent (exit 2), naming line and field', async () => {
    const lines = bodies('Bad', 4).map((b) => JSON.stringify(b));
    lines[2] = JSON.stringify(merchantBody('Bad 3', { company: { website: 'not-a-url' } }));
    lines[3] = '{"company_details": ';
    const results = `${sb.dir}/bad-results.jsonl`;
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('bad.jsonl', `${lines.join('\n')}\n`), '--results', results, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('2 of 4 lines in');
    expect(r.stderr).toContain('  line 3: company_details.website: must be an http:// or https:// address');
    expect(r.stderr).toMatch(/ {2}line 4: not valid JSON/);
    expect(r.stderr).toContain('hint: nothing was sent: fix them and run again, or add --skip-invalid');
    expect(await countsOf('Bad')).toEqual({});
    expect(existsSync(results)).toBe(false);
  });

  it('--skip-invalid sends the valid lines, records the invalid ones, and exits 2', async () => {
    const list = bodies('Skip', 3);
    list[1] = merchantBody('Skip 2', { company: { hs_codes: ['123'] } });
    const results = `${sb.dir}/skip-results.jsonl`;
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('skip.jsonl', jsonl(list)), '--results', results, '--skip-invalid', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).map((x: any) => x.status)).toEqual(['created', 'invalid', 'created']);
    // JSON mode: one error object on stderr, no prose.
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'BATCH_INCOMPLETE', message: '1 of 3 lines not created', details: { created: 2, invalid: 1 }, status: null } });
    expect(await countsOf('Skip')).toEqual({ 'Skip 1': 1, 'Skip 3': 1 });
    expect(readJsonl(results)[1]).toMatchObject({ line: 2, error: { code: 'VALIDATION', details: { 'company_details.hs_codes.0': 'must be an 8-digit HS code' } } });
  });

  it('a gateway refusal of one line does not stop the others; the exit code is the first failure\'s', async () => {
    agent = new MockAgent(); // requests it does not intercept go on to the sandbox
    agent.get(sb.h.sandbox.baseUrl).intercept({ path: '/partners/merchants/', method: 'POST', body: (b) => b.includes('"brand_name":"Refused 2"') }).reply(400, {
      success: false,
      error: { code: 'ERR_MERCHANT_001', message: 'Tax ID already registered', details: { 'company_details.tax_id': 'duplicate' } },
    });
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('refused.jsonl', jsonl(bodies('Refused', 3))), '-o', 'table'], { dispatcher: agent });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Tax ID already registered (ERR_MERCHANT_001)');
    expect(await countsOf('Refused')).toEqual({ 'Refused 1': 1, 'Refused 3': 1 });
  });

  it('--dry-run prints every request and sends nothing', async () => {
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('dry.jsonl', jsonl(bodies('DryB', 2))), '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const previews = JSON.parse(r.stdout);
    expect(previews.map((p: any) => [p.line, p.request.method, p.request.body.company_details.brand_name])).toEqual([[1, 'POST', 'DryB 1'], [2, 'POST', 'DryB 2']]);
    expect(previews[0].request.headers['X-Client-Secret']).toBe('[redacted]');
    expect(await countsOf('DryB')).toEqual({});
  });

  it('refuses to overwrite or mix into an existing results file without --resume', async () => {
    const results = sb.file('exists.jsonl', '');
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('ex.jsonl', jsonl(bodies('Exists', 2))), '--results', results, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--results: ${results} already exists`);
    expect(await countsOf('Exists')).toEqual({});
  });
});

describe('interruption and --resume', () => {
  it('a gateway that fails at line 3 stops the run; --resume finishes it with no duplicates', async () => {
    const input = sb.file('int.jsonl', jsonl(bodies('Int', 6)));
    const results = `${sb.dir}/int-results.jsonl`;
    agent = new MockAgent();
    agent.get(sb.h.sandbox.baseUrl)
      .intercept({ path: '/partners/merchants/', method: 'POST', body: (b) => b.includes('"brand_name":"Int 3"') })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const first = await sb.pgw(['merchant', 'create', '--file', input, '--results', results, '-o', 'table'], { dispatcher: agent });
    expect(first.code).toBe(3);
    expect(first.stderr).toContain('stopped: could not connect');
    expect(first.stderr).toContain(`hint: to finish, fix what failed and run: pgw -p local merchant create --file ${input} --resume ${results}`);
    expect(await countsOf('Int')).toEqual({ 'Int 1': 1, 'Int 2': 1 });
    const recorded = readJsonl(results);
    expect(recorded.map((x) => [x.line, x.id !== undefined, x.error?.code ?? null])).toEqual([[1, true, null], [2, true, null], [3, false, 'ECONNREFUSED']]);
    expect(recorded[2]).not.toHaveProperty('uncertain'); // refused connection: nothing reached the gateway

    const resumed = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).map((x: any) => x.status)).toEqual(['already_created', 'already_created', 'created', 'created', 'created', 'created']);
    expect(await countsOf('Int')).toEqual(once('Int', 6));
    expect(readJsonl(results).filter((x) => x.id).map((x) => x.line).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    fileHasNoSecret(results, sb.secret);

    // Resuming a finished run sends nothing.
    const again = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '-o', 'table']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('6 already created');
    expect(await countsOf('Int')).toEqual(once('Int', 6));
  });

  it('Ctrl-C with a request in flight: exit 130, that line held back on resume until checked (never sent twice)', async () => {
    const input = sb.file('ctrlc.jsonl', jsonl(bodies('CtrlC', 4)));
    const results = `${sb.dir}/ctrlc-results.jsonl`;
    const controller = new AbortController();
    agent = new MockAgent();
    agent.get(sb.h.sandbox.baseUrl)
      .intercept({ path: '/partners/merchants/', method: 'POST', body: (b) => b.includes('"brand_name":"CtrlC 2"') })
      .reply(() => {
        controller.abort(); // what bin/ does on SIGINT, while this request is in flight
        return { statusCode: 200, data: {} };
      });
    const first = await sb.pgw(['merchant', 'create', '--file', input, '--results', results, '-o', 'table'], { dispatcher: agent, signal: controller.signal });
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('interrupted; the lines after it were not attempted');
    expect(readJsonl(results).map((x) => [x.line, x.uncertain ?? false])).toEqual([[1, false], [2, true]]);

    const resumed = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '--json']);
    expect(resumed.code).toBe(6);
    const statuses = JSON.parse(resumed.stdout);
    expect(statuses.map((x: any) => x.status)).toEqual(['already_created', 'uncertain', 'created', 'created']);
    expect(statuses[1].error.message).toContain(`check pgw merchant list, then remove its records (line 2) from ${results}`);
    expect(await countsOf('CtrlC')).toEqual({ 'CtrlC 1': 1, 'CtrlC 3': 1, 'CtrlC 4': 1 });

    // Checked: line 2 was not created. Remove its records (attempt and outcome), and the next resume sends it.
    const kept = readFileSync(results, 'utf8').split('\n').filter((l) => l && JSON.parse(l).line !== 2);
    writeFileSync(results, `${kept.join('\n')}\n`);
    const last = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '--json']);
    expect(last.code).toBe(0);
    expect(await countsOf('CtrlC')).toEqual(once('CtrlC', 4));
  });

  it('a line edited after it was created is refused on resume (exit 2, nothing sent)', async () => {
    const list = bodies('Edit', 2);
    const input = sb.file('edit.jsonl', jsonl(list));
    const results = `${sb.dir}/edit-results.jsonl`;
    expect((await sb.pgw(['merchant', 'create', '--file', input, '--results', results])).code).toBe(0);
    list[1]!.company_details.website = 'https://edited.example';
    list.push(merchantBody('Edit 3'));
    writeFileSync(input, jsonl(list));
    const r = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2: changed since it was created as merchant [0-9]+/);
    expect(r.stderr).toContain('pgw merchant update');
    expect(await countsOf('Edit')).toEqual({ 'Edit 1': 1, 'Edit 2': 1 });
  });

  it('lines that moved (reformatted, reordered, one inserted) are matched by content', async () => {
    const list = bodies('Move', 3);
    const input = sb.file('move.jsonl', jsonl(list));
    const results = `${sb.dir}/move-results.jsonl`;
    expect((await sb.pgw(['merchant', 'create', '--file', input, '--results', results])).code).toBe(0);
    // Same merchants, keys in another order, reversed, a blank line and a new merchant first.
    const reordered = [merchantBody('Move 4'), ...list.reverse().map((b) => ({ company_details: b.company_details, settlement_details: b.settlement_details }))];
    writeFileSync(input, `${JSON.stringify(reordered[0])}\n\n${reordered.slice(1).map((b) => JSON.stringify(b)).join('\n')}\n`);
    const r = await sb.pgw(['merchant', 'create', '--file', input, '--resume', results, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((x: any) => [x.line, x.status])).toEqual([[1, 'created'], [3, 'already_created'], [4, 'already_created'], [5, 'already_created']]);
    expect(await countsOf('Move')).toEqual(once('Move', 4));
  });

  it('batch flags without --file, and a missing results file, are exit 2', async () => {
    expect((await sb.pgw(['merchant', 'create', '--resume', 'x.jsonl'])).code).toBe(2);
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('nr.jsonl', jsonl(bodies('NoRes', 2))), '--resume', `${sb.dir}/none.jsonl`, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
    expect(await countsOf('NoRes')).toEqual({});
  });
});

describe('bulk create on production', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempConfigDir()));
  afterEach(() => tmp.cleanup());

  it('asks once for the whole batch', async () => {
    agent = new MockAgent();
    agent.disableNetConnect();
    let n = 0;
    agent.get('https://api-pacb.eximpe.com').intercept({ path: '/partners/merchants/', method: 'POST' }).reply(() => ({
      statusCode: 200,
      data: { success: true, message: 'sub-merchant created successfully', data: { id: String(100 + ++n) } },
    })).times(3);
    noSubMerchants(agent);
    const file = `${tmp.dir}/p.jsonl`;
    writeFileSync(file, jsonl(bodies('Prod', 3)));
    const prompter = fakePrompter({ kind: 'confirm', message: 'merchant create (3 sub-merchants) on PRODUCTION', answer: true });
    const r = await runCli(['merchant', 'create', '--file', file], {
      dispatcher: agent,
      tty: true,
      prompter,
      env: { PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: 'https://api-pacb.eximpe.com', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sekret-bulk-prod' },
    });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('103');
    // The gateway reviews the KYC: the next step reads them back on the same account.
    expect(r.stderr.replace(/ \\\n\s*/g, ' ')).toMatch(/next: pgw -p \S+ merchant get 101 102 103/);
  });
});
