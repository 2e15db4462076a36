// Completion scripts: generated from the command tree, committed in completions/, and working
// in a real bash.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { commandTree } from '../../src/commands/completion/generate.js';
import { ROOT } from '../helpers/spawn.js';
import { runCli } from '../helpers/run.js';

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
});
