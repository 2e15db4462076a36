// `pgw pan ...`: registered by program.ts; the verb's file is loaded when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const VERIFY_HELP = `
Checks a PAN against the holder's name and date of birth (vendor 11.6). A PAN that does not
match is still an answer (exit 0): verified false, with the reason. An LRS quote needs a
verified PAN. In the sandbox: ABCDE1234F, or any PAN whose 4th letter is P, verifies; another
4th letter gives NON_INDIVIDUAL_PAN, the name MISMATCH gives NAME_MISMATCH and the date of
birth 1900-01-01 gives DOB_MISMATCH.

Examples:
  pgw pan verify --pan ABCDE1234F --name "Asha Rao" --dob 1990-02-28
  pgw pan verify --pan ABCPE1234F --name MISMATCH --dob 1990-02-28 --json`;

export function registerPan(program: Command, ctx: Context): void {
  const pan = program.command('pan').description('verify a PAN against its holder (for LRS remittances)');
  pan
    .command('verify')
    .description("check a PAN against the holder's name and date of birth (vendor 11.6)")
    .option('--pan <pan>', 'the PAN, e.g. ABCDE1234F')
    .option('--name <name>', "the holder's name as on the PAN")
    .option('--dob <date>', "the holder's date of birth, YYYY-MM-DD")
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', VERIFY_HELP)
    .action(async (flags: { pan?: string; name?: string; dob?: string; dryRun?: boolean }) => {
      const { runPanVerify } = await import('./verify.js');
      await runPanVerify(ctx, { ...flags, dryRun: flags.dryRun === true });
    });
}
