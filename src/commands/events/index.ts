// `pgw events list|wait|get|resend`: the sandbox's webhook delivery log (issue 19). Registered by
// program.ts; the verb file is loaded only when it runs.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { EVENT_TYPES } from '../../events.js';

const LIST_HELP = `
Every event the sandbox recorded for the account in use (a PSP: its sub-merchants' too), newest
first: its type, when, where it went, how many attempts, the last answer and the next attempt
(on the sandbox clock: pgw sandbox clock advance makes it happen now). Status: pending (an
attempt is still to come, even after a refused first one), delivered (every address answered
200), failed (an address never did), no_address (nothing was registered when it happened).
Sent to several addresses, last is the worst of them (1/2 failing: one of two has no 200).
An empty list under --status says what else there is.

Examples:
  pgw events list
  pgw events list --status failed --type PAYMENT_SUCCESSFUL
  pgw events list --about PR1234567890 --json | jq '.[].id'`;

const GET_HELP = `
Every attempt to every address (when, the HTTP status or why there was none, how long it took),
the X-Webhook-Signature and -V2 values each attempt sent, then the body exactly as sent and
signed, on one line at column 0: with either value, pgw webhook verify checks it (the
Encryption Key is never shown).

Examples:
  pgw events get EV12345678901234
  pgw events get EV12345678901234 --json | jq -j .body > body.json
  pgw webhook verify --file body.json --signature <a value events get shows>`;

const RESEND_HELP = `
One new attempt now with the same body (same sequence_number), signed anew, to every address
registered now for the event's account, or to --to. Not retried. Answers once it is made.

Examples:
  pgw events resend EV12345678901234
  pgw events resend EV12345678901234 --to http://localhost:3000/webhooks`;

const WAIT_HELP = `
For CI: instead of polling your receiver's log, wait for the sandbox's own record. Exits 0 and
prints the event (as events get shows it) as soon as one matches; exit 3 when --timeout (the
whole wait, default 30s) runs out, naming what it waited for and where the nearest event stands.
Events already recorded count: name the payment with --about to wait for yours. --status
delivered waits for a 200 from every address; failed for an event whose attempts are spent.
pgw's own sandbox only (exit 6 on a production profile).

Examples:
  pgw events wait --type PAYMENT_SUCCESSFUL --about PR1234567890 --status delivered --timeout 30s
  pgw events wait --type VERIFICATION_NEEDED --about PR1234567890 --json | jq .payload.data.message`;

export function registerEvents(program: Command, ctx: Context): void {
  const events = program.command('events').description("the sandbox's webhook delivery log: each event, its attempts, resend; wait for one (CI)");
  events
    .command('list')
    .alias('ls')
    .description('events, newest first, with attempts, last answer and next attempt')
    .addOption(new Option('--type <event>', 'only this event type').choices([...EVENT_TYPES]).argParser((v) => v.toUpperCase()))
    .addOption(new Option('--status <status>', 'only events in this state').choices(['pending', 'delivered', 'failed', 'no_address']))
    .option('--about <id>', 'only events whose body names this ID (payment, order, settlement, refund, merchant)')
    .option('--limit <n>', 'at most this many (default 50, at most 1000)')
    .addHelpText('after', LIST_HELP)
    .action(async (opts: { type?: string; status?: string; about?: string; limit?: string }) => {
      const { runEventsList } = await import('./run.js');
      await runEventsList(ctx, opts);
    });
  events
    .command('wait')
    .description('wait until an event matches (CI): exit 0 with it, 3 when --timeout runs out')
    .addOption(new Option('--type <event>', 'the event type to wait for').choices([...EVENT_TYPES]).argParser((v) => v.toUpperCase()))
    .option('--about <id>', 'an ID its body names (payment, order, settlement, refund, merchant)')
    .addOption(new Option('--status <status>', 'wait until it is in this state').choices(['pending', 'delivered', 'failed', 'no_address']))
    .addHelpText('after', WAIT_HELP)
    .action(async (opts: { type?: string; about?: string; status?: string }) => {
      const { runEventsWait } = await import('./wait.js');
      await runEventsWait(ctx, opts);
    });
  events
    .command('get')
    .description('one event: the body sent and every attempt')
    .argument('<id>', 'event ID (EV...) or its sequence_number')
    .addHelpText('after', GET_HELP)
    .action(async (id: string) => {
      const { runEventsGet } = await import('./run.js');
      await runEventsGet(ctx, { id });
    });
  events
    .command('resend')
    .description('one new attempt now, to every registered address or --to')
    .argument('<id>', 'event ID (EV...) or its sequence_number')
    .option('--to <url>', 'send it to this address instead')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText('after', RESEND_HELP)
    .action(async (id: string, opts: { to?: string; dryRun?: boolean }) => {
      const { runEventsResend } = await import('./run.js');
      await runEventsResend(ctx, { id, ...opts });
    });
}
