// The embedded sandbox addresses its buyer pages (checkout, 3-D Secure, payment links) where a
// `pgw sandbox serve` on the same database listens (its record, src/sandbox/serve-record.ts), else
// on serve's default port, where they open only once a serve runs there (issue 33 item 11).
// Saying so helps a person once; it is noise in a script's log, repeated on every create, and
// wrong when a serve already answers there (issue 22 item 7). So: a terminal only, once per run,
// never when a serve of this database is known to run, and only after a quick look finds nothing
// listening on that port (a serve of an older pgw leaves no record).
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

/** Where the embedded sandbox's pages are addressed, and whether a serve of its database runs there. */
export interface PagesAddress {
  baseUrl: string;
  serving: boolean;
}

/** The hint, when it helps: stderr is a terminal, not said yet in this run, no serve of this database. */
export async function pagesHint(ctx: Context, pages: PagesAddress, what = 'pages'): Promise<void> {
  if (pages.serving || !ctx.io.stderrIsTTY || told.has(ctx)) return;
  told.add(ctx);
  const port = Number(new URL(pages.baseUrl).port || 80);
  if (await answersOn(port)) return;
  ctx.io.err(`hint: the ${what} open once \`pgw sandbox serve\` runs on this database (port ${port})\n`);
}

/** The embedded sandbox's page address for this run (it reads the serve record once, at start). */
export async function embeddedPages(ctx: Context): Promise<PagesAddress> {
  const sandbox = await ctx.embeddedSandbox();
  if (sandbox.pages) return sandbox.pages;
  const { DEFAULT_SERVE_URL } = await import('../sandbox/serve-record.js');
  return { baseUrl: DEFAULT_SERVE_URL, serving: false };
}
