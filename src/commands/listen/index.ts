// `pgw listen`: registered by program.ts; the verb file is loaded only when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const LISTEN_HELP = `
On pgw's sandbox (profiles local and local-psp, or pgw sandbox serve on this machine) the
receiver registers itself for the account in use, so events made by any pgw process or any
client of that sandbox arrive, and removes the registration when it stops. Events are
acknowledged at once: a slow or failing app never makes the sandbox retry.
On any other profile nothing is registered: the receiver runs on --port for a tunnel you run.
A terminal shows one line per event (time, event_type, whether its signature verified with the
account's Encryption Key, IDs, the forward's status and time); a pipe or --json gets each event
as received, one JSON object per line. The key comes from the profile (profile add
--encryption-key-stdin, or PGW_ENCRYPTION_KEY), or on pgw's sandbox from the sandbox itself.
With --forward-to, an event the sandbox already brings to that address (it is registered for
the event's merchant or its PSP, or another listener forwards there) is not forwarded: the app
gets each event once; decided per event, and said at start. --forward-to the listener itself is
refused. On Ctrl-C or SIGTERM it takes nothing more, finishes the forwards it owes (at most
--timeout, default 5s) and names any event it could not forward (pgw events resend <id>).

Examples:
  pgw listen --forward-to http://localhost:3000/webhooks
  pgw listen --events PAYMENT_SETTLED --json | jq '.data.settlements[0].settlement_id'
  echo "WEBHOOK_KEY=$(pgw listen --print-key)" >> .env
  pgw listen -p staging --port 8765 --forward-to http://localhost:3000/webhooks`;

export function registerListen(program: Command, ctx: Context): void {
  program
    .command('listen')
    .description("receive the gateway's webhook events, show them, and forward them to your app")
    .option('--forward-to <url>', 'POST each event (exact body and headers) to this address')
    .option('--events <TYPE,...>', 'only these events, e.g. PAYMENT_SETTLED,PAYMENT_SUCCESSFUL')
    .option('--port <n>', 'port of the receiver on 127.0.0.1 (default: a free one; required off pgw\'s sandbox)')
    .option('--print-key', "print the account's webhook Encryption Key (for a .env file) and exit")
    .option('--ready-file <path>', 'once receiving (and registered), write a JSON line there; removed on stop')
    .addHelpText('after', LISTEN_HELP)
    .action(async (opts: { forwardTo?: string; events?: string; port?: string; printKey?: boolean; readyFile?: string }) => {
      const { runListen } = await import('./run.js');
      await runListen(ctx, opts);
    });
}
