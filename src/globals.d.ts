/** Replaced at build time (esbuild define) and in tests (vitest define) with package.json's version. */
declare const __PGW_VERSION__: string;
