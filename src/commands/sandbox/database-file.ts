// The file a whole-database command works on (`reset --all`, `clock --all`): --db, or the
// embedded profiles' own. Never a server's over HTTP: the whole database belongs to the machine
// that holds it, not to one of the accounts calling it (docs/sandbox.md, "Invariants", I2).
import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { requireSandbox } from '../../rails.js';
import { sandboxDbPath } from '../../config/paths.js';

/** `overHttp`: what to say when the profile is a server's, where only the account in use's part can be reached. */
export async function wholeDatabaseFile(ctx: Context, db: string | undefined, command: string, overHttp: string): Promise<string> {
  if (db !== undefined) {
    if (!existsSync(db)) throw new UsageError(`--db: no sandbox database at ${db}`);
    return db;
  }
  const profile = await ctx.profile();
  requireSandbox(profile, command);
  if (profile.baseUrl !== undefined) throw new UsageError(overHttp);
  return sandboxDbPath(ctx.configDir);
}
