// `pgw mcp`: the agent face (src/mcp/). Nothing of the MCP SDK loads unless this command runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const MCP_HELP = `
Speaks the Model Context Protocol on stdin and stdout: an agent starts it, a person does not
talk to it. On the embedded sandbox by default; -p chooses another profile. Sandbox tools are
not offered on production; there, writes need --allow-production and are two-step (a preview and
a token, then the call with the token). docs/mcp.md has the set-up for agents.

Without --toolsets it offers the default list: the everyday tools of every toolset, within 40
tools and 40,000 characters of tool descriptions (what an agent reads before it starts). Naming
a toolset offers all of its tools; \`all\` offers every tool, \`default\` the default list.
Toolsets: orders, payments, refunds, links, settlements, merchants, compliance (virtual accounts,
PAN, LRS, order documents, verification), events, sandbox.

Examples:
  claude mcp add pgw -- pgw mcp
  pgw mcp --list
  pgw mcp --toolsets payments,refunds --read-only --list --json
  pgw mcp --toolsets default,compliance --list`;

export function registerMcp(program: Command, ctx: Context): void {
  program
    .command('mcp')
    .description('a Model Context Protocol server on stdio: the commands as tools for coding agents')
    .option('--toolsets <names>', 'these toolsets, comma-separated; all, or default (the list without it)')
    .option('--read-only', 'offer only tools that read')
    .option('--allow-production', 'on a production profile, offer writes (each two-step)')
    .option('--list', 'print the tools it would offer, with their annotations, and exit')
    .addHelpText('after', MCP_HELP)
    .action(async (opts: { toolsets?: string; readOnly?: boolean; allowProduction?: boolean; list?: boolean }) => {
      const { runMcp } = await import('../../mcp/command.js');
      await runMcp(ctx, opts);
    });
}
