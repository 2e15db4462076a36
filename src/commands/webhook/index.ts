// `pgw webhook verify`: registered by program.ts; the verb file is loaded only when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const VERIFY_HELP = `
Checks a saved webhook body the way a receiver should (vendor's recipe): HMAC-SHA256 of the exact
bytes with the account's Encryption Key, compared in constant time; if that fails, the fallback
of re-serialising the JSON with sorted keys and no spaces, refused for a body with a duplicate
key at any depth (a parser keeping the last value re-serialises the signed object, one keeping
the first reads the key put in front: a receiver using the fallback must refuse them too).
--signature takes the value of X-Webhook-Signature (64 hex characters) or of
X-Webhook-Signature-V2 (t=<unix time>,v2=<hex>).
The key is read from stdin with --key-stdin, else from the profile (profile add
--encryption-key-stdin, or PGW_ENCRYPTION_KEY), else on pgw's sandbox from the sandbox. Never a
flag: argv shows in ps and shell history.
Exit 0 when it verifies, 1 with the reason when it does not, 2 for bad input.

Examples:
  pgw webhook verify --file body.json --signature 3f1c...e9
  printf '%s' "$WEBHOOK_KEY" | pgw webhook verify --file body.json --signature "$SIG" --key-stdin
  pgw events get EV12345678901234 --json | jq -j .body > body.json`;

export function registerWebhook(program: Command, ctx: Context): void {
  const webhook = program.command('webhook').description('webhook tools: check a signature');
  webhook
    .command('verify')
    .description("check a saved webhook body against its signature with the account's Encryption Key")
    .requiredOption('--file <path>', 'the body exactly as received (- reads stdin)')
    .requiredOption('--signature <value>', 'X-Webhook-Signature (hex), or X-Webhook-Signature-V2 (t=...,v2=...)')
    .option('--key-stdin', 'read the Encryption Key from stdin (its trailing newline removed)')
    .addHelpText('after', VERIFY_HELP)
    .action(async (opts: { file: string; signature: string; keyStdin?: boolean }) => {
      const { runWebhookVerify } = await import('./verify.js');
      await runWebhookVerify(ctx, opts);
    });
}
