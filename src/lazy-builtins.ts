// Node built-ins that only some runs need, loaded on first use instead of when the module that
// names them is loaded (issue 23). A bundled import of a built-in is taken at start-up (the build
// turns it into a require() at the top of the chunk): node:crypto costs ~5 ms on Node 24 and
// node:http ~2 ms, in every embedded look-up that never draws a random number or fails.
// process.getBuiltinModule exists from Node 20.16 (package.json engines: ^20.18.1).

let crypto: typeof import('node:crypto') | undefined;
let http: typeof import('node:http') | undefined;

export function nodeCrypto(): typeof import('node:crypto') {
  return (crypto ??= process.getBuiltinModule('node:crypto'));
}

/** `Not Found` for 404: HTTP's reason phrase, as node:http knows it. */
export function reasonPhrase(status: number): string | undefined {
  return (http ??= process.getBuiltinModule('node:http')).STATUS_CODES[status];
}
