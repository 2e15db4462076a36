// pgw profile show [name]: one profile in detail; the secret masked (last 4 at most).
import type { Context, Env, GlobalOptions } from '../../context.js';
import { UsageError } from '../../errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { emit } from '../../output/render.js';
import { profileDetail, profileJson } from './view.js';

export interface ProfileShowOptions {
  /** Absent: the profile in force (--profile, PGW_PROFILE, else the current one). */
  name?: string;
}

export function buildProfileShowOptions(
  name: string | undefined,
  globals: Pick<GlobalOptions, 'profile'>,
  env: Env,
): ProfileShowOptions {
  const chosen = name ?? globals.profile ?? (env.PGW_PROFILE ? env.PGW_PROFILE : undefined);
  return chosen === undefined ? {} : { name: validateProfileName(chosen) };
}

export async function runProfileShow(ctx: Context, opts: ProfileShowOptions): Promise<void> {
  const store = await ctx.profiles();
  const name = opts.name ?? store.current();
  const entry = store.list().find((e) => e.name === name);
  if (!entry) {
    throw new UsageError(`profile "${name}" not found`, {
      code: 'PROFILE_NOT_FOUND',
      suggestion: 'see the profiles with `pgw profile list`',
    });
  }
  await emit(ctx.io, ctx.output, profileJson(entry), () => {
    ctx.io.out(profileDetail(entry, store.path));
  });
}
