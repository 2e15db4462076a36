// README's "Global options" and "Environment" tables and `pgw --help` say the same (issue 32 item
// 5: they had drifted: `-o`'s choices, PGW_ENCRYPTION_KEY, --timeout's units).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, spawnPgw } from '../helpers/spawn.js';

function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `README has "## ${heading}"`).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 4);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The first cell of each table row, its code spans. */
const firstCells = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('| ') && !/^\|[- |]+\|$/.test(l))
    .slice(1)
    .flatMap((l) => [...l.split(' | ')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));

it('README lists the options and environment variables `pgw --help` does, with the same arguments', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const help = (await spawnPgw(['--help'], { env: { COLUMNS: '200' } })).stdout;
  const helpOptions = [...help.split('Commands:')[0]!.matchAll(/^ {2}((?:-\w, )?--[\w-]+(?: <\w+>)?)/gm)].map((m) => m[1]!).filter((o) => !/--(version|help)\b/.test(o));
  // --csv-raw means something with -o csv only: the root's help leaves it to the csv commands,
  // whose help lists it with the other globals (help.ts compactRoot).
  expect(firstCells(section(readme, 'Global options')).sort()).toEqual([...helpOptions, '--csv-raw'].sort());
  expect((await spawnPgw(['payment', 'list', '--help'], { env: { COLUMNS: '200' } })).stdout).toContain('--csv-raw');
  const helpEnv = /Environment: ([\s\S]*?)\.\n/.exec(help)![1]!.split(/,\s+/).map((v) => v.replace(/ \(.*\)$/, '').trim());
  const readmeEnv = firstCells(section(readme, 'Environment')).flatMap((c) => c.split(/,\s*/));
  expect(readmeEnv.sort()).toEqual(helpEnv.sort());
});
