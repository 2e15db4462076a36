// The global options that take a value (program.ts): their value is not the noun. In a file of its
// own so that `pgw mcp`'s fast start (mcp/fast-start.ts) reads a command line without the tree.
export const GLOBAL_VALUE_FLAGS: ReadonlySet<string> = new Set(['-p', '--profile', '-o', '--output', '--query', '--base-url', '--api-version', '-m', '--merchant', '--timeout', '--jq']);
