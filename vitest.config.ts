import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __PGW_VERSION__: JSON.stringify(pkg.version), __PGW_ROOT_HELP__: JSON.stringify('@@PGW_ROOT_HELP@@') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/helpers/parity-setup.ts', 'test/helpers/cpu-setup.ts'],
  },
});
