// pgw completion <bash|zsh|fish>: prints the script generated from the live command tree, the
// same text as the files in completions/ (a test keeps them equal).
import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';

export function registerCompletion(program: Command, ctx: Context): void {
  program
    .command('completion')
    .description('print the shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', '\nExamples (install):\n  pgw completion bash > ~/.local/share/bash-completion/completions/pgw\n  pgw completion zsh > "${fpath[1]}/_pgw"\n  pgw completion fish > ~/.config/fish/completions/pgw.fish')
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./generate.js');
      ctx.io.out(completionScript(program, shell));
    });

  // The live values the scripts ask for on each TAB (values.ts); hidden from help and completion.
  program
    .command('__complete', { hidden: true })
    .argument('<what>', 'profiles')
    .action(async (what: string) => {
      const { printLiveValues } = await import('./live.js');
      await printLiveValues(ctx, what);
    });
}
