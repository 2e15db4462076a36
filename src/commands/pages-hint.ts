// The embedded sandbox addresses its buyer pages (checkout, 3-D Secure, payment links) on
// `pgw sandbox serve`'s default port, where they open only while a serve runs on the same data.
// Saying so helps a person once; it is noise in a script's log, repeated on every create, and
// wrong when a serve already answers there (issue 22 item 7). So: a terminal only, once per run,
// and only after a quick look finds nothing listening on that port.
import { request } from 'node:http';
import type { Context } from '../context.js';

const told = new WeakSet<Context>();

/** True when anything answers HTTP on 127.0.0.1:`port` (a refused connection is answered at once). */
export function answersOn(port: number, waitMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/sandbox/health/', method: 'GET', timeout: waitMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The hint, when it helps: stderr is a terminal, not said yet in this run, no serve on `port`. */
export async function pagesHint(ctx: Context, port: number, what = 'pages'): Promise<void> {
  if (!ctx.io.stderrIsTTY || told.has(ctx)) return;
  told.add(ctx);
  if (await answersOn(port)) return;
  ctx.io.err(`hint: the ${what} open while \`pgw sandbox serve\` runs (port ${port}, same data)\n`);
}
