// The one way sandbox helper verbs reach /sandbox/...: refused on production (exit 6, nothing
// sent), --dry-run prints the request instead, and a gateway without the helpers gets a hint.
import type { Context } from '../../context.js';
import type { ApiRequest } from '../../api/types.js';
import { NotFoundError } from '../../errors.js';
import { requireSandbox } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';

export async function sandboxCall<T>(ctx: Context, command: string, req: ApiRequest, dryRun = false): Promise<T | undefined> {
  const profile = await ctx.profile();
  requireSandbox(profile, command);
  const api = await ctx.api();
  if (dryRun) {
    await printDryRun(ctx.io, ctx.output, api.preview(req));
    return undefined;
  }
  try {
    return await api.request<T>(req);
  } catch (err) {
    if (err instanceof NotFoundError && err.code === 'ERR_NOT_FOUND_000') {
      throw new NotFoundError(err.message, {
        ...err,
        suggestion: "this gateway has no /sandbox/ helpers: they exist only on pgw's own sandbox (profiles local and local-psp, or pgw sandbox serve)",
      });
    }
    throw err;
  }
}
