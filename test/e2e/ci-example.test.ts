// The worked CI example of docs/sandbox.md (issue 24) runs as written: the shell script is taken
// from the document, its `npm test` line replaced by three order creates (two meet the injected
// 503s), and run with a `pgw` on PATH that is this build. The GitHub Actions job beside it (issue
// 44 item 2) runs step by step as a runner runs it: each `run` in its own bash (`-eo pipefail`),
// RUNNER_TEMP, GITHUB_ENV read back between steps, a background process left running until the
// job ends; pgw's checkout (the second actions/checkout) is this one, where the suite's own
// install has run, so its `npm install` there is the one command taken as done; `npm link` links
// it into the runner's global prefix (a temporary one), and `npm test` is the three creates.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/spawn.js';

const hasJq = spawnSync('jq', ['--version']).status === 0;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-ci-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function blockFromDocs(lang: 'sh' | 'yaml'): string {
  const doc = readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A worked CI example'), doc.indexOf('## Storage engines'));
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!m) throw new Error(`no ${lang} block in "A worked CI example"`);
  return m[1]!;
}
const scriptFromDocs = () => blockFromDocs('sh');

/** The three creates that stand in for a team's `npm test`: two meet the injected 503s. */
function ordersTest(): string {
  const orderFile = join(dir, 'order.json');
  if (!existsSync(orderFile)) writeFileSync(orderFile, execFileSync(process.execPath, [BIN, 'order', 'create', '--print-template'], { env: { ...process.env, PGW_CONFIG_DIR: dir } }));
  return `for i in 1 2 3; do pgw order create --file "${orderFile}" --reference-id "ci-$i" -o table >/dev/null 2>&1 || echo "create $i failed"; done`;
}

interface Step {
  name?: string;
  uses?: string;
  with?: Record<string, string>;
  run?: string;
  'working-directory'?: string;
}

/** The steps of the job, read for the shapes the document uses (and refused otherwise). */
export function jobSteps(yaml: string): Step[] {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => /^ {4}steps:$/.test(l));
  if (start < 0) throw new Error('no steps: in the job');
  const steps: Step[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const m = /^ {6}(- | {2})([\w-]+): ?(.*)$/.exec(line);
    if (!m) throw new Error(`a line of the job this test does not read: ${line}`);
    if (m[1] === '- ') steps.push({});
    const step = steps[steps.length - 1]!;
    const [key, value] = [m[2]!, m[3]!];
    if (key === 'with') {
      const flow = /^\{ (.*) \}$/.exec(value);
      if (!flow) throw new Error(`with: as a flow map only: ${line}`);
      step.with = Object.fromEntries(flow[1]!.split(', ').map((kv) => kv.split(': ') as [string, string]));
    } else if (key === 'run' && value === '|') {
      const body: string[] = [];
      while (i + 1 < lines.length && (/^ {10}/.test(lines[i + 1]!) || lines[i + 1]!.trim() === '')) body.push(lines[++i]!.slice(10));
      step.run = `${body.join('\n').trimEnd()}\n`;
    } else if (key === 'name' || key === 'uses' || key === 'run' || key === 'working-directory') step[key] = value;
    else throw new Error(`a step key this test does not know: ${key}`);
  }
  return steps;
}

it.skipIf(!hasJq)('the shell script of "A worked CI example" runs: ready, seeded, faulted, restored, stopped', () => {
  const bin = join(dir, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  writeFileSync(join(bin, 'pgw'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pgw'), 0o755);
  const script = scriptFromDocs();
  expect(script).toMatch(/^npm test/m);
  writeFileSync(join(dir, 'ci.sh'), script.replace(/^npm test.*$/m, ordersTest()));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const r = spawnSync('sh', [join(dir, 'ci.sh')], { env: { ...clean, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' }, encoding: 'utf8', timeout: 90_000 });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toContain('create 1 failed');
  expect(r.stdout).toContain('create 2 failed');
  expect(r.stdout).not.toContain('create 3 failed');
  expect(r.stdout).toContain('true'); // jq -e '.[0].fired == 2'
}, 120_000);

it.skipIf(!hasJq)('the GitHub Actions job runs step by step: pgw installed from its checkout, ready, seeded, faulted, restored', async () => {
  const job = join(dir, 'job');
  const workspace = join(job, 'workspace');
  const temp = join(job, 'runner-temp');
  const prefix = join(job, 'global'); // the runner's global npm prefix, on its PATH
  const shims = join(job, 'shims');
  for (const d of [workspace, temp, prefix, shims]) mkdirSync(d, { recursive: true });
  const realNpm = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const githubEnv = join(temp, 'github-env');
  writeFileSync(githubEnv, '');
  // `npm install` in pgw's checkout has run: this checkout is the suite's, installed and built.
  // Nothing else the job runs may change it: only `npm link --ignore-scripts` reaches npm there
  // (it writes to the runner's global prefix alone), and any other npm command in it fails the job.
  const checkout = realpathSync(ROOT);
  writeFileSync(
    join(shims, 'npm'),
    `#!/bin/sh\nif [ "$(pwd -P)" = "${checkout}" ]; then\n  [ "$*" = install ] && { echo "(pgw's checkout is installed)"; exit 0; }\n  [ "$*" = "link --ignore-scripts" ] || { echo "npm $* in pgw's checkout: not run here" >&2; exit 1; }\nfi\nexec "${realNpm}" "$@"\n`,
  );
  chmodSync(join(shims, 'npm'), 0o755);

  const steps = jobSteps(blockFromDocs('yaml'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_')) && !k.startsWith('npm_')));
  const base: Record<string, string> = {
    ...(clean as Record<string, string>),
    PATH: `${shims}:${join(prefix, 'bin')}:${dirname(process.execPath)}:${process.env.PATH}`,
    npm_config_prefix: prefix,
    // The runner's npm, without the registry round trips that cost tens of seconds here.
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    RUNNER_TEMP: temp,
    GITHUB_ENV: githubEnv,
    GITHUB_WORKSPACE: workspace,
    CI: 'true',
    NO_COLOR: '1',
  };
  const groups: number[] = [];
  let output = '';
  try {
    for (const [n, step] of steps.entries()) {
      const what = step.name ?? step.uses ?? step.run!;
      if (step.uses) {
        if (step.uses === 'actions/checkout@v4' && step.with?.repository === 'pgw-cli/pgw') symlinkSync(ROOT, join(workspace, step.with.path!));
        else if (step.uses !== 'actions/checkout@v4' && step.uses !== 'actions/setup-node@v4') throw new Error(`an action this test does not stand in for: ${step.uses}`);
        continue;
      }
      const run = step.run === 'npm test' ? ordersTest() : step.run!;
      // GITHUB_ENV: KEY=VALUE lines written by the steps before, in the environment of the next.
      const added = Object.fromEntries(readFileSync(githubEnv, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run], {
        cwd: join(workspace, step['working-directory'] ?? ''),
        env: { ...base, ...added },
        detached: true, // its own process group: what it leaves running is ended with the job
      });
      groups.push(child.pid!);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      output += `--- step ${n + 1}: ${what} (exit ${code})\n${out}`;
      expect(code, output).toBe(0);
    }
  } finally {
    for (const g of groups) {
      try {
        process.kill(-g, 'SIGTERM');
      } catch {}
    }
  }
  expect(output).toContain('create 1 failed');
  expect(output).toContain('create 2 failed');
  expect(output).not.toContain('create 3 failed');
  expect(output).toMatch(/fault list[^\n]*\(exit 0\)\ntrue\n/);
  // pgw was the one `npm link` put on the runner's PATH, and the sandbox listened on a port of its own.
  expect(existsSync(join(prefix, 'bin', 'pgw'))).toBe(true);
  expect(readFileSync(githubEnv, 'utf8')).toMatch(/^PGW_BASE_URL=http:\/\/127\.0\.0\.1:(?!4010\n)\d+$/m);
}, 120_000);
