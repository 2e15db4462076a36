// `pgw __complete <what>`: live values for the completion scripts, one per line. Reads only the
// profile file; prints nothing (and succeeds) when it cannot, so a TAB never shows an error.
// Only names that pass the profile-name rule are printed: the file may be hand-edited, or sit in
// a shared 1777 directory, and a name like `$(...)` must never reach a shell (issue 21 item 7).
import type { Context } from '../../context.js';
import { isValidProfileName } from '../../config/profiles.js';

export async function printLiveValues(ctx: Context, what: string): Promise<void> {
  if (what !== 'profiles') return;
  try {
    const store = await ctx.profiles();
    ctx.io.out(store.list().filter((e) => isValidProfileName(e.name)).map((e) => `${e.name}\n`).join(''));
  } catch {
    // an unreadable profile file: nothing to offer
  }
}
