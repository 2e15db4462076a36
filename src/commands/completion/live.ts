// `pgw __complete <what>`: live values for the completion scripts, one per line. Reads only the
// profile file; prints nothing (and succeeds) when it cannot, so a TAB never shows an error.
import type { Context } from '../../context.js';

export async function printLiveValues(ctx: Context, what: string): Promise<void> {
  if (what !== 'profiles') return;
  try {
    const store = await ctx.profiles();
    ctx.io.out(store.list().map((e) => `${e.name}\n`).join(''));
  } catch {
    // an unreadable profile file: nothing to offer
  }
}
