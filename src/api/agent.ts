// The keep-alive pool shared by every request of a run. A module of its own so that undici is
// loaded only when a request is about to be made.
//
// Start-up cost (issue 7): `import 'undici'` evaluates the whole package (fetch, WebSocket, caches,
// cookies, interceptors, mock agents) and, through it, Node's own bundled copy of undici: ~45 ms
// here, against ~19 ms for the dispatcher and its request API alone. So only those parts are
// imported, and `request()` is attached to Dispatcher.prototype exactly as undici's index.js does.
// The paths are undici's own files (the package has no exports map); a move fails the build.
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

Object.assign(DispatcherBase.prototype, api);

// undici parses HTTP with llhttp compiled to WebAssembly. V8 then recompiles that module with its
// optimising tier on a background thread, and Node waits for that job before the process may exit:
// 90-150 ms added to every short command on these machines. The baseline compiler alone parses a
// response in microseconds, so the optimising tier is switched off before the module is compiled
// (on the first connection). Process-wide, but pgw runs no other WebAssembly.
setFlagsFromString('--liftoff-only');

export function createAgent(): Dispatcher & { close(): Promise<void> } {
  // connections: the most look-ups --concurrency may put in flight at once (lookup.ts caps it at 64).
  return new Agent({ keepAliveTimeout: 10_000, connections: 64 });
}
