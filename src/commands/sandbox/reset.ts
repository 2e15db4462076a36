// pgw sandbox reset: empties the sandbox. Destructive, so it asks first (or needs --yes).
import type { Context } from '../../context.js';
import { RefusedError } from '../../errors.js';
import { sandboxCall } from './call.js';

export async function runReset(ctx: Context, opts: { dryRun?: boolean }): Promise<void> {
  if (!opts.dryRun && !ctx.yes) {
    if (!ctx.io.canPrompt) throw new RefusedError('sandbox reset deletes every order, payment and settlement: confirm with --yes');
    const prompter = await ctx.loadPrompter();
    const ok = await prompter.confirm({ message: 'Delete every order, payment, link and settlement in the sandbox?', default: false });
    if (!ok) throw new RefusedError('sandbox reset cancelled');
  }
  const result = await sandboxCall<Record<string, unknown>>(ctx, 'sandbox reset', { method: 'POST', path: '/sandbox/reset/' }, opts.dryRun);
  if (result === undefined) return;
  if (ctx.output.format === 'json') ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
  else ctx.io.err('sandbox emptied (accounts and credentials kept)\n');
}
