// `pgw mcp`: the agent face (src/mcp/). Nothing of the MCP SDK loads unless this command runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const MCP_HELP = `
Speaks the Model Context Protocol on stdin and stdout: an agent starts it, a person does not
talk to it. On the embedded sandbox by default; -p chooses another profile. Sandbox tools are
not offered on production; there, writes need --allow-production and are two-step (a preview and
a token, then the call with the token). docs/mcp.md has the set-up for agents.

Toolsets: orders, payments, refunds, links, settlements, merchants, events, sandbox.

Examples:
  claude mcp add pgw -- pgw mcp
  pgw mcp --list
  pgw mcp --toolsets payments,refunds --read-only --list --json`;

export function registerMcp(program: Command, ctx: Context): void {
  program
    .command('mcp')
    .description('a Model Context Protocol server on stdio: the commands as tools for coding agents')
    .option('--toolsets <names>', 'only these toolsets, comma-separated')
    .option('--read-only', 'offer only tools that read')
    .option('--allow-production', 'on a production profile, offer writes (each two-step)')
    .option('--list', 'print the tools it would offer, with their annotations, and exit')
    .addHelpText('after', MCP_HELP)
    .action(async (opts: { toolsets?: string; readOnly?: boolean; allowProduction?: boolean; list?: boolean }) => {
      const { runMcp } = await import('../../mcp/command.js');
      await runMcp(ctx, opts);
    });
}
