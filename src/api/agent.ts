// The keep-alive pool shared by every request of a run. A module of its own so that undici is
// loaded only when a request is about to be made (and, bundled, through esbuild's CJS interop,
// which a bare dynamic import('undici') of a CommonJS package does not get).
import { Agent, type Dispatcher } from 'undici';

export function createAgent(): Dispatcher & { close(): Promise<void> } {
  // connections: the most look-ups --concurrency may put in flight at once (lookup.ts caps it at 64).
  return new Agent({ keepAliveTimeout: 10_000, connections: 64 });
}
