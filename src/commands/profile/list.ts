// pgw profile list: every profile, built-ins first; the secret masked (last 4 at most).
import type { Context } from '../../context.js';
import { maskSecret } from '../../config/profiles.js';
import { emit, renderTable } from '../../output/render.js';
import { addressOf, profileJson } from './view.js';

export async function runProfileList(ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const entries = store.list();
  await emit(ctx.io, ctx.output, entries.map(profileJson), () => {
    const rows = entries.map((e) => [
      e.current ? '*' : '',
      e.name,
      e.profile.env,
      addressOf(e.profile),
      e.profile.client_id ?? (e.builtIn ? '(demo account)' : undefined),
      e.profile.client_secret ? maskSecret(e.profile.client_secret) : e.builtIn ? '(demo account)' : undefined,
    ]);
    ctx.io.out(renderTable(['', 'NAME', 'ENV', 'BASE URL', 'CLIENT ID', 'SECRET'], rows, ctx.io.colorOut));
  });
}
