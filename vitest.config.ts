import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __PGW_VERSION__: JSON.stringify(pkg.version), __PGW_ROOT_HELP__: JSON.stringify('@@PGW_ROOT_HELP@@') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker less than the cores: one worker on a 2-core CI machine, where
    // the suite then spends much of its time waiting on the processes and servers its tests start.
    // Two workers overlap that waiting (issue 44 item 6: 593 s → 341 s for Node 20 here).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/helpers/parity-setup.ts', 'test/helpers/cpu-setup.ts'],
  },
});
