// `pgw api <METHOD> <path>`: a raw authenticated request, for operations that have no command yet.
// Nothing heavy here: the action loads ./request.js when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const API_HELP = `
The path is below the profile's base address; the profile's credentials and
headers are added (X-API-Version on /pg/ paths, X-Merchant-ID with --merchant
except on /partners/ paths). Output is the envelope's data as JSON. GET is
retried on 429, 502-504 and connection failures.

Examples:
  pgw api GET /pg/payments/PR0000000001/
  pgw api GET /partners/merchants/ --query-param page=2 \\
      --query-param page_size=50
  pgw api PATCH /pg/orders/OD123/ --data @update.json
  jq -n '{payment_status: "SUCCESS"}' | \\
      pgw api POST /pg/subscriptions/SUB1/simulate_payment/ --data -
  pgw api POST /pg/orders/ --data @order.json --dry-run`;

export interface ApiFlags {
  data?: string;
  queryParam?: string[];
  dryRun?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerApi(program: Command, ctx: Context): void {
  program
    .command('api')
    .description('send a raw authenticated request (for operations that have no command yet)')
    .argument('<method>', 'GET, POST, PATCH, PUT or DELETE (any case)')
    .argument('<path>', 'path below the base address, starting with /, e.g. /pg/payments/PR0000000001/')
    .option('-d, --data <source>', 'JSON request body: @file.json reads a file, - reads stdin')
    .option('--query-param <key=value>', 'add a query parameter (repeatable)', collect)
    .option('--dry-run', 'print the request that would be sent (secret redacted, card masked) and send nothing')
    .addHelpText('after', API_HELP)
    .action(async (method: string, path: string, flags: ApiFlags) => {
      const { runApiRequest } = await import('./request.js');
      await runApiRequest(ctx, { method, path, ...flags });
    });
}
