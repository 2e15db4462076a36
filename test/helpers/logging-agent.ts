// A gateway that logs every request: an undici Agent handed to pgw as its dispatcher (runCli's
// `dispatcher`), recording the method and path of what it carries, and the documented operations
// (parity/gateway.json: spec, beyond, vendor) to check the log against. Issue 41's answers prove
// with it that on production they use only documented reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { ROOT } from './spawn.js';

export class LoggingAgent extends Agent {
  /** `GET /pg/payments/?page=1…`: method and path with its query, in the order sent. */
  readonly log: string[] = [];
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.log.push(`${opts.method} ${String(opts.path)}`);
    return super.dispatch(opts, handler);
  }
}

/** The documented operations as method + path patterns (the list's wildcard families left out). */
const DOCUMENTED: { method: string; path: RegExp }[] = JSON.parse(readFileSync(join(ROOT, 'parity/gateway.json'), 'utf8'))
  .operations.filter((o: { path: string }) => !o.path.includes('*'))
  .map((o: { method: string; path: string }) => ({ method: o.method, path: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}(\\?.*)?$`) }));

/** Whether a logged line is a documented operation. */
export function documented(line: string): boolean {
  const [method, path] = line.split(' ');
  return DOCUMENTED.some((o) => o.method === method && o.path.test(path!));
}
