// pgw profile remove <name>: delete a stored profile. It destroys credentials, so it asks in a
// terminal and needs --yes otherwise (exit 6 without), like the production rails.
import type { Context } from '../../context.js';
import { RefusedError, UsageError } from '../../errors.js';
import { isBuiltInProfile, validateProfileName } from '../../config/profiles.js';
import { emit } from '../../output/render.js';

export interface ProfileRemoveOptions {
  name: string;
}

export function buildProfileRemoveOptions(name: string): ProfileRemoveOptions {
  validateProfileName(name);
  if (isBuiltInProfile(name)) throw new UsageError(`"${name}" is a built-in profile and cannot be removed`);
  return { name };
}

export async function runProfileRemove(ctx: Context, opts: ProfileRemoveOptions): Promise<void> {
  const store = await ctx.profiles({ write: true });
  const profile = store.get(opts.name);
  if (!profile) {
    throw new UsageError(`profile "${opts.name}" not found`, {
      code: 'PROFILE_NOT_FOUND',
      suggestion: 'see the profiles with `pgw profile list`',
    });
  }
  if (!ctx.yes) {
    if (!ctx.io.canPrompt) {
      throw new RefusedError(`removing profile "${opts.name}" needs --yes when not asked in a terminal`, {
        code: 'CONFIRMATION_REQUIRED',
      });
    }
    const prompter = await ctx.loadPrompter();
    const ok = await prompter.confirm({
      message: `Remove profile "${opts.name}" (${profile.env}) and its credentials?`,
      default: false,
    });
    if (!ok) throw new RefusedError(`profile "${opts.name}" not removed`, { code: 'NOT_CONFIRMED' });
  }
  const wasCurrent = store.current() === opts.name;
  store.remove(opts.name);
  const current = store.current();
  await emit(ctx.io, ctx.output, { removed: opts.name, current }, () => {
    ctx.log(`Removed profile "${opts.name}".${wasCurrent ? ` The current profile is now "${current}".` : ''}`);
  });
}
