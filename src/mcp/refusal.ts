// `pgw mcp` refusing to start (a wrong toolset, an unknown profile): an agent's client starts it
// and shows its person only what the client itself reads, so a refusal that is merely an exit
// code reads "Connection closed" (issue 43 item 5). The refusal is one plain line on stderr,
// which clients keep in their MCP logs, whatever the output format; and when the client has sent
// its `initialize` (it does so at once), that request is answered with the same line as an error,
// which clients show where the server failed to connect.
import type { Context } from '../context.js';
import { PgwError, ReportedError, exitCodeFor } from '../errors.js';

/** How long the refusal waits for the client's first request: it comes at once, or not at all. */
const WAIT_MS = 2000;

/** The refusal in one line: the message and its hint. */
export function refusalLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof PgwError && err.suggestion ? ` (hint: ${err.suggestion})` : '';
  return `pgw mcp: error: ${message}${hint}`.replace(/\s*\n\s*/g, ' ');
}

/** The id of the client's `initialize`, if it sends one within the wait; undefined otherwise. */
function firstInitialize(ctx: Context): Promise<string | number | undefined> {
  const stdin = ctx.io.stdin;
  if (ctx.io.stdinIsTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    const done = (id: string | number | undefined) => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      resolve(id);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end < 0) return;
      try {
        const message = JSON.parse(text.slice(0, end)) as { method?: unknown; id?: unknown };
        const id = message.id;
        done(message.method === 'initialize' && (typeof id === 'string' || typeof id === 'number') ? id : undefined);
      } catch {
        done(undefined);
      }
    };
    const onEnd = () => done(undefined);
    const timer = setTimeout(() => done(undefined), WAIT_MS);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
  });
}

/** Say the refusal where the client shows it, then end the run with its exit code (ReportedError). */
export async function refuseStart(ctx: Context, err: unknown): Promise<never> {
  const line = ctx.io.clean(refusalLine(err));
  ctx.io.err(`${line}\n`);
  const id = await firstInitialize(ctx);
  if (id !== undefined) {
    // JSON-RPC's "server error" range; the protocol has no code of its own for a refusal to start.
    ctx.io.out(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: line } })}\n`);
  }
  throw new ReportedError(exitCodeFor(err));
}
