// Completion scripts: generated from the command tree, committed in completions/, and working
// in a real bash.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { commandTree } from '../../src/commands/completion/generate.js';
import { ROOT } from '../helpers/spawn.js';
import { runCli, tempConfigDir } from '../helpers/run.js';

// A config directory with one stored profile, and `pgw` on PATH, for the live values.
const config = tempConfigDir();
const binDir = join(config.dir, 'bin');
const shellEnv = (): NodeJS.ProcessEnv => ({ ...process.env, PGW_CONFIG_DIR: config.dir, PATH: `${binDir}:${process.env.PATH}` });
beforeAll(async () => {
  mkdirSync(binDir);
  symlinkSync(join(ROOT, 'bin/pgw.js'), join(binDir, 'pgw'));
  const r = await runCli(['profile', 'add', 'staging', '--client-id', 'cid_1', '--client-secret-stdin'], { input: 'secret-1', env: { PGW_CONFIG_DIR: config.dir } });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => config.cleanup());

const FILES = { bash: 'completions/pgw.bash', zsh: 'completions/_pgw', fish: 'completions/pgw.fish' } as const;
const tree = commandTree(buildProgram(new Context()));

function hasShell(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

describe.each(Object.entries(FILES))('%s completion', (shell, file) => {
  it('is the committed file (run npm run completions after changing commands)', async () => {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, file), 'utf8'));
  });

  it('names every command and every flag', () => {
    const script = readFileSync(join(ROOT, file), 'utf8');
    for (const node of tree) {
      for (const sub of node.subcommands) expect(script, `${node.path} ${sub.name}`).toContain(sub.name);
      for (const flag of node.flags) {
        const spelled = shell === 'fish' ? (flag.flag.startsWith('--') ? `-l ${flag.flag.slice(2)}` : `-s ${flag.flag.slice(1)}`) : flag.flag;
        expect(script, `${node.path} ${flag.flag}`).toContain(spelled);
      }
    }
  });
});

function bashComplete(words: string[]): string[] {
  const script = join(ROOT, FILES.bash);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _pgw; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: 'utf8',
    env: shellEnv(),
  });
  return out.split('\n').filter(Boolean);
}

describe('bash completes for real', () => {
  it('top-level commands from a prefix', () => {
    expect(bashComplete(['pgw', 'pay'])).toEqual(['payment']);
    expect(bashComplete(['pgw', 'sand'])).toEqual(['sandbox']);
  });

  it('verbs of a nested group', () => {
    expect(bashComplete(['pgw', 'sandbox', 'link', ''])).toEqual(expect.arrayContaining(['create', 'deactivate']));
  });

  it("a verb's own flags and the global ones", () => {
    const words = bashComplete(['pgw', 'sandbox', 'pay', '--']);
    expect(words).toEqual(expect.arrayContaining(['--fail', '--mop', '--dry-run', '--profile', '--json']));
  });

  it('skips the value of a global option when finding the command', () => {
    expect(bashComplete(['pgw', '--profile', 'sandbox', 'comp'])).toEqual(['completion']);
  });

  it('pgw -p <TAB> lists the profiles, live from the profile file', () => {
    expect(bashComplete(['pgw', '-p', ''])).toEqual(['local', 'local-psp', 'staging']);
    expect(bashComplete(['pgw', '--profile', 'st'])).toEqual(['staging']);
    expect(bashComplete(['pgw', 'payment', 'get', '-p', ''])).toContain('staging');
  });

  it('profile names as the argument of profile use, show and remove; never a lone -', () => {
    expect(bashComplete(['pgw', 'profile', 'use', ''])).toEqual(['local', 'local-psp', 'staging']);
    expect(bashComplete(['pgw', 'profile', 'remove', 'st'])).toEqual(['staging']);
    expect(bashComplete(['pgw', 'payment', 'get', ''])).toEqual([]);
  });

  it('nouns before flags: flags only once - is typed', () => {
    const nouns = bashComplete(['pgw', '']);
    expect(nouns).toEqual(expect.arrayContaining(['order', 'payment', 'sandbox', 'help']));
    expect(nouns.filter((w) => w.startsWith('-'))).toEqual([]);
    expect(bashComplete(['pgw', '-'])).toEqual(expect.arrayContaining(['--profile', '--output', '--json']));
  });

  it.each([
    [['pgw', '-o', ''], ['table', 'json', 'csv']],
    [['pgw', 'order', 'create', '--mode', ''], ['hosted_payment', 's2s']],
    [['pgw', 'order', 'create', '--upi-flow', ''], ['intent', 'collection']],
    [['pgw', 'order', 'create', '--mop', 'c'], ['credit_card']],
    [['pgw', 'sub', 'simulate', 'SUB1', '--status', ''], ['SUCCESS', 'FAILED']],
    [['pgw', 'profile', 'add', 'x', '--env', ''], ['sandbox', 'production']],
    [['pgw', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['pgw', 'api', ''], ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']],
    // issue 19: every event trigger can cause, and the delivery log's filters
    [['pgw', 'trigger', 'PAYMENT_S'], ['PAYMENT_SUCCESSFUL', 'PAYMENT_SETTLED']],
    [['pgw', 'trigger', 'REF'], ['REFUND_FAILED', 'REFUND_STATUS_UPDATE']],
    [['pgw', 'trigger', 'REFUND_STATUS_UPDATE', '--refund-status', ''], ['PROCESSING', 'REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND']],
    [['pgw', 'events', 'list', '--status', ''], ['pending', 'delivered', 'failed', 'no_address']],
    [['pgw', 'sandbox', 'clock', ''], ['show', 'advance', 'set', 'reset']],
  ])('%j completes the choices', (words, expected) => {
    expect(bashComplete(words)).toEqual(expected);
  });

  it('a free-text value completes nothing', () => {
    expect(bashComplete(['pgw', 'order', 'create', '--amount', ''])).toEqual([]);
  });
});

describe.runIf(hasShell('zsh'))('zsh script', () => {
  it('parses', () => {
    expect(spawnSync('zsh', ['-n', join(ROOT, FILES.zsh)]).status).toBe(0);
  });
});

describe.runIf(hasShell('fish'))('fish script', () => {
  it('parses', () => {
    expect(spawnSync('fish', ['--no-execute', join(ROOT, FILES.fish)]).status).toBe(0);
  });

  const fishComplete = (line: string): string[] =>
    execFileSync('fish', ['-c', `source '${join(ROOT, FILES.fish)}'; complete -C '${line}'`], { encoding: 'utf8', env: shellEnv() })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);

  it('completes for real: profiles, choices, nouns', () => {
    expect(fishComplete('pgw -p ')).toEqual(['local', 'local-psp', 'staging']);
    expect(fishComplete('pgw profile use ')).toEqual(['local', 'local-psp', 'staging']);
    expect(fishComplete('pgw order create --mode ')).toEqual(['hosted_payment', 's2s']);
    expect(fishComplete('pgw ')).toEqual(expect.arrayContaining(['order', 'payment']));
  });
});

describe('profile names from a hostile config file (issue 21 item 7)', () => {
  // A config directory whose file was edited by someone else (a shared 1777 directory): names that
  // fail the profile-name rule, one of them shell syntax that would run on TAB.
  const hostile = tempConfigDir();
  const marker = join(hostile.dir, 'ran');
  const fakeBin = join(hostile.dir, 'fake-bin');
  const hostileEnv = (path: string): NodeJS.ProcessEnv => ({ ...process.env, PGW_CONFIG_DIR: hostile.dir, PATH: `${path}:${process.env.PATH}` });
  beforeAll(() => {
    const profile = { env: 'sandbox', client_id: 'c', client_secret: 's' };
    writeFileSync(
      join(hostile.dir, 'config.json'),
      JSON.stringify({ current: 'ok-one', profiles: { 'ok-one': profile, [`$(touch ${marker})`]: profile, '`touch x`': profile, 'a b': profile, '*': profile } }),
      { mode: 0o600 },
    );
    mkdirSync(join(hostile.dir, 'bin'));
    symlinkSync(join(ROOT, 'bin/pgw.js'), join(hostile.dir, 'bin', 'pgw'));
    // A pgw that prints whatever it likes (an older version): the scripts must still not run it.
    mkdirSync(fakeBin);
    writeFileSync(join(fakeBin, 'pgw'), `#!/bin/sh\nprintf '%s\\n' 'ok-two' '$(touch ${marker})' 'semi;colon'\n`, { mode: 0o755 });
  });
  afterAll(() => hostile.cleanup());

  const complete = (words: string[], path: string): string[] => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    const out = execFileSync('bash', ['-c', `source '${join(ROOT, FILES.bash)}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _pgw; printf '%s\\n' "\${COMPREPLY[@]}"`], {
      encoding: 'utf8',
      env: hostileEnv(path),
      cwd: hostile.dir,
    });
    return out.split('\n').filter(Boolean);
  };

  it('pgw __complete profiles (the built binary) prints only names that pass the profile-name rule', async () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'bin/pgw.js'), '__complete', 'profiles'], { encoding: 'utf8', env: hostileEnv('') });
    expect(out).toBe('local\nlocal-psp\nok-one\n');
  });

  it('bash: TAB after -p runs nothing and offers only valid names', () => {
    expect(complete(['pgw', '-p', ''], join(hostile.dir, 'bin'))).toEqual(['local', 'local-psp', 'ok-one']);
    expect(complete(['pgw', 'profile', 'use', ''], join(hostile.dir, 'bin'))).toEqual(['local', 'local-psp', 'ok-one']);
    expect(existsSync(marker)).toBe(false);
  });

  it('bash: whatever pgw prints is offered as data, never evaluated, and quoted', () => {
    expect(complete(['pgw', '-p', ''], fakeBin)).toEqual(['ok-two']);
    expect(existsSync(marker)).toBe(false);
  });

  it('bash: static words are matched and quoted too, without compgen -W', () => {
    const script = readFileSync(join(ROOT, FILES.bash), 'utf8');
    const code = script.split('\n').filter((l) => !l.trim().startsWith('#')).join('\n');
    expect(code).not.toContain('compgen');
    expect(script).toContain("printf -v q '%q'");
  });

  it('zsh and fish keep the live names to the profile-name rule before the shell sees them', () => {
    expect(readFileSync(join(ROOT, FILES.zsh), 'utf8')).toContain("__complete profiles 2>/dev/null | command grep -E '^[A-Za-z0-9][A-Za-z0-9_-]*$'");
    const fish = readFileSync(join(ROOT, FILES.fish), 'utf8');
    expect(fish).not.toMatch(/-a '\(pgw __complete profiles 2>\/dev\/null\)'/);
    expect(fish.match(/__complete profiles 2>\/dev\/null \| string match -r/g)?.length).toBeGreaterThan(1);
  });
});
