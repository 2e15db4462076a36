// `pgw lrs ...`: registered by program.ts; the verb's file is loaded when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const QUOTE_HELP = `
What an LRS remittance (outward, from India) costs the remitter (vendor 11.6): TCS is nil up to
Rs 10,00,000 of LRS in the financial year (1 April-31 March), 2% on the part above it; the fee
and GST are added on top. The PAN must be verified first (pgw pan verify). A quote reserves
nothing. The sandbox enables the LRS purpose codes S0305, S1107 (education), S0303, S0304 and
S0306 (travel).

Examples:
  pgw lrs quote --pan ABCDE1234F --amount 1200000 --purpose-code S0305
  pgw lrs quote --pan ABCDE1234F --amount 250000.50 --purpose-code S0306 --json`;

export function registerLrs(program: Command, ctx: Context): void {
  const lrs = program.command('lrs').description('LRS remittances: what one costs with TCS');
  lrs
    .command('quote')
    .description('the TCS, fee and total of an LRS remittance for a verified PAN (vendor 11.6)')
    .option('--pan <pan>', 'the remitter\'s verified PAN')
    .option('--amount <rupees>', 'the remittance in rupees, e.g. 1200000 or 1500.50')
    .option('--purpose-code <code>', 'an LRS purpose code: S0305, S1107, S0303, S0304 or S0306')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', QUOTE_HELP)
    .action(async (flags: { pan?: string; amount?: string; purposeCode?: string; dryRun?: boolean }) => {
      const { runLrsQuote } = await import('./quote.js');
      await runLrsQuote(ctx, { ...flags, dryRun: flags.dryRun === true });
    });
}
