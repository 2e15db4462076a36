// `pgw profile add|list|use|show|remove`: named credentials and addresses (contract table).
// Each action loads its verb file only when it runs; nothing here imports conf or @inquirer.
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';

const ADD_HELP = `
The address and API version are the global options, given anywhere on the line:
  --base-url <url>     stored as the profile's base address (default: the public
                       sandbox or production address of --env)
  --api-version <v>    stored as the profile's X-API-Version (default 3.0.0)
The client secret is never a flag: it is asked with a masked prompt in a
terminal, or read from stdin with --client-secret-stdin. The webhook
Encryption Key (dashboard, Developer section) is read from stdin with
--encryption-key-stdin; with both, stdin holds the secret on its first line
and the key on its second.

Examples:
  pgw profile add staging --client-id cid_123
  printf '%s' "$SECRET" | pgw profile add ci --client-id cid_123 --client-secret-stdin
  pgw profile add prod --env production --client-id cid_456 --merchant-id M123
  printf '%s\\n%s\\n' "$SECRET" "$KEY" | pgw profile add ci --client-id cid_123 \
      --client-secret-stdin --encryption-key-stdin`;

export function registerProfile(program: Command, ctx: Context): void {
  const profile = program
    .command('profile')
    .description('manage profiles: named credentials, addresses and API versions');

  profile
    .command('add')
    .description('add a profile (the secret from a masked prompt or --client-secret-stdin)')
    .argument('<name>', 'profile name: letters, digits, "_" and "-"')
    .addOption(new Option('--env <env>', 'which gateway: sandbox or production').choices(['sandbox', 'production']).default('sandbox'))
    .option('--client-id <id>', 'client ID (X-Client-ID); asked in a terminal when missing')
    .option('--merchant-id <id>', 'default X-Merchant-ID for this profile (PSP callers)')
    .option('--client-secret-stdin', 'read the client secret from stdin (its trailing newline removed)')
    .option('--encryption-key-stdin', 'read the webhook Encryption Key from stdin (after the secret, on the next line, with --client-secret-stdin)')
    .option('--force', 'replace a profile of the same name')
    .addHelpText('after', ADD_HELP)
    .action(async (name: string, flags: Record<string, unknown>) => {
      const { buildProfileAddOptions, runProfileAdd } = await import('./add.js');
      await runProfileAdd(ctx, buildProfileAddOptions(name, flags, ctx.globals));
    });

  profile
    .command('list')
    .alias('ls')
    .description('list the profiles (secrets masked); * marks the current one')
    .action(async () => {
      const { runProfileList } = await import('./list.js');
      await runProfileList(ctx);
    });

  profile
    .command('use')
    .description('make a profile the current one (the default for every command)')
    .argument('<name>', 'profile name')
    .action(async (name: string) => {
      const { buildProfileUseOptions, runProfileUse } = await import('./use.js');
      await runProfileUse(ctx, buildProfileUseOptions(name));
    });

  profile
    .command('show')
    .description('show a profile (secret masked); default: the profile in force (--profile, PGW_PROFILE, else the current one)')
    .argument('[name]', 'profile name')
    .action(async (name: string | undefined) => {
      const { buildProfileShowOptions, runProfileShow } = await import('./show.js');
      await runProfileShow(ctx, buildProfileShowOptions(name, ctx.globals, ctx.env));
    });

  profile
    .command('remove')
    .alias('rm')
    .description('remove a profile (asks in a terminal; needs --yes otherwise)')
    .argument('<name>', 'profile name')
    .action(async (name: string) => {
      const { buildProfileRemoveOptions, runProfileRemove } = await import('./remove.js');
      await runProfileRemove(ctx, buildProfileRemoveOptions(name));
    });
}
