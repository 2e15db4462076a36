// pgw profile use <name>: make a profile the default of every command.
import type { Context } from '../../context.js';
import { validateProfileName } from '../../config/profiles.js';
import { emit } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { isProduction } from '../../rails.js';
import { baseUrlOf, profileJson } from './view.js';

export interface ProfileUseOptions {
  name: string;
}

export function buildProfileUseOptions(name: string): ProfileUseOptions {
  return { name: validateProfileName(name) };
}

export async function runProfileUse(ctx: Context, opts: ProfileUseOptions): Promise<void> {
  const store = await ctx.profiles({ write: true });
  store.setCurrent(opts.name); // refuses a profile that does not exist
  const entry = store.list().find((e) => e.name === opts.name)!;
  await emit(ctx.io, ctx.output, profileJson(entry), () => {
    const production = isProduction({ env: entry.profile.env, baseUrl: baseUrlOf(entry.profile) });
    const note = production ? ` ${createTheme(ctx.io.colorErr).red('(PRODUCTION)')}` : '';
    ctx.log(`Now using profile "${opts.name}"${note}.`);
  });
}
