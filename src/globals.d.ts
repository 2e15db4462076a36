/** Replaced at build time (esbuild define) and in tests (vitest define) with package.json's version. */
declare const __PGW_VERSION__: string;
/** The root's help as a pipe gets it, rendered by the build (scripts/root-help.mjs); in tests a placeholder. */
declare const __PGW_ROOT_HELP__: string;
/** ES2024 (Node 20 has them); the project's lib is ES2023. */
interface String {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
