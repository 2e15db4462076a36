// pgw mcp: the Model Context Protocol server for coding agents, on the profile's gateway. The
// command decides what is offered (catalog.ts) and either lists it (--list) or serves it on stdio.
import type { Context } from '../context.js';
import { PgwError, ReportedError } from '../errors.js';
import { isOwnSandbox, isProduction } from '../rails.js';
import { parseToolsets, type Gateway, type ToolSpec } from './tool.js';

export interface McpOptions {
  toolsets?: string;
  readOnly?: boolean;
  allowProduction?: boolean;
  list?: boolean;
}

export async function runMcp(ctx: Context, opts: McpOptions): Promise<void> {
  // Serving, a refusal is said where the agent's client shows it (refusal.ts); --list is a command.
  if (opts.list) return start(ctx, opts);
  try {
    await start(ctx, opts);
  } catch (err) {
    if (!(err instanceof PgwError) || err instanceof ReportedError || !starting.has(ctx)) throw err;
    await (await import('./refusal.js')).refuseStart(ctx, err);
  }
}

/** Runs still deciding what to serve: an error then is a refusal to start. */
const starting = new WeakSet<Context>();

async function start(ctx: Context, opts: McpOptions): Promise<void> {
  starting.add(ctx);
  const toolsets = parseToolsets(opts.toolsets);
  // The SDK is most of the wait for `initialize`: its loading starts while the profile is read.
  const serverModule = opts.list ? undefined : import('./server.js');
  serverModule?.catch(() => undefined); // a refusal below must not leave a rejection unheard
  if (opts.list) void ctx.output; // a bad -o is refused before anything else
  const profile = await ctx.profile();
  const gateway: Gateway = {
    production: isProduction(profile),
    pgwSandbox: isOwnSandbox(profile),
    embedded: profile.env === 'embedded' && profile.baseUrl === undefined,
  };
  // The tools (and the request schemas behind them) load when first asked for: an agent's
  // `initialize` is answered without them.
  const selection = { toolsets, readOnly: opts.readOnly, allowProduction: opts.allowProduction };
  const tools = async (): Promise<ToolSpec[]> => (await import('./catalog.js')).selectTools(gateway, selection);
  if (opts.allowProduction && !gateway.production) ctx.log(`note: --allow-production changes nothing on profile "${profile.name}": it is not production`);
  if (gateway.production && !opts.allowProduction && !opts.readOnly) {
    ctx.log(`note: profile "${profile.name}" is production: read tools only (--allow-production offers writes, each two-step)`);
  }
  if (opts.list) {
    const { printList } = await import('./list.js');
    return printList(ctx, await tools(), gateway);
  }
  const where = gateway.embedded ? 'the embedded sandbox' : gateway.production ? 'PRODUCTION' : gateway.pgwSandbox ? 'a pgw sandbox' : 'a sandbox gateway';
  if (ctx.io.stdinIsTTY) ctx.log('pgw mcp speaks the Model Context Protocol on stdin and stdout: start it from an agent (see docs/mcp.md); Ctrl-C stops it');
  ctx.log(`pgw mcp: serving profile "${profile.name}" (${where}) on stdio`);
  const { serveStdio } = await serverModule!;
  starting.delete(ctx);
  await serveStdio(ctx, { gateway, tools, instructions: instructionsFor(profile.name, where, gateway, opts.toolsets === undefined) });
}

function instructionsFor(profile: string, where: string, gateway: Gateway, defaultList: boolean): string {
  const lines = [
    `pgw's tools act on profile "${profile}" (${where}). Each tool is a pgw command verb; its result is the data \`pgw <command> --json\` prints (a list as {"items": [...]}), and errors carry the gateway's code and pgw's hint.`,
    'IDs are taken as people paste them: one string with commas or spaces, or a list. Amounts are rupees, as "1500.00", "1500" or 1500.',
  ];
  if (gateway.embedded) lines.push('The embedded sandbox is offline and stateful: orders, payments, refunds and settlements persist; sandbox_* tools pay orders, trigger events, move the clock, and save and restore snapshots.');
  if (gateway.production) lines.push('This is PRODUCTION: each write is two-step. The first call returns a preview and a confirmation_token and sends nothing; show the preview to the person, and only with their agreement call again with the same arguments and the token (valid 5 minutes, once). The token sends exactly the request previewed.');
  // Said without loading the tools (initialize is answered before they load): the toolsets whose
  // tools are not all in the default list.
  if (defaultList) lines.push('These are the everyday tools. More (compliance: virtual accounts, PAN, LRS, documents, verification; merchant writes; faults, subscriptions) come with `pgw mcp --toolsets all` or `--toolsets default,compliance`: ask the person to restart the server with them.');
  return lines.join('\n');
}
