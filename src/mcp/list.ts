// `pgw mcp --list`: the tools the server would offer on this profile, with their annotations. JSON
// (for scripts and for docs/mcp.md's generated list) or a table.
import type { Context } from '../context.js';
import { emit, renderTable } from '../output/render.js';
import { inputSchemaOf } from './schema.js';
import { annotationsOf, isTwoStep, type Gateway, type ToolSpec } from './tool.js';

export interface ListedTool {
  name: string;
  title: string;
  toolset: string;
  /** In the list offered without --toolsets (catalog.ts). */
  in_default_list: boolean;
  command: string;
  description: string;
  annotations: ReturnType<typeof annotationsOf>;
  two_step: boolean;
  input_schema: Record<string, unknown>;
}

export function listedTools(tools: ToolSpec[], gateway: Gateway): ListedTool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    toolset: t.toolset,
    in_default_list: t.extra !== true,
    command: t.command,
    description: t.description,
    annotations: annotationsOf(t, gateway.embedded),
    two_step: isTwoStep(t, gateway),
    input_schema: inputSchemaOf(t, isTwoStep(t, gateway)),
  }));
}

const yes = (b: boolean) => (b ? 'yes' : '-');

export async function printList(ctx: Context, tools: ToolSpec[], gateway: Gateway): Promise<void> {
  const listed = listedTools(tools, gateway);
  await emit(ctx.io, ctx.output, listed, () => {
    if (listed.length === 0) {
      ctx.io.err('no tools: the toolsets and flags given leave none on this profile\n');
      return;
    }
    const rows = listed.map((t) => [
      t.name,
      t.toolset,
      t.annotations.readOnlyHint ? 'read' : t.two_step ? 'write, two-step' : 'write',
      yes(t.annotations.destructiveHint),
      yes(t.annotations.idempotentHint),
      yes(t.annotations.openWorldHint),
      yes(t.in_default_list),
      t.command,
    ]);
    ctx.io.out(
      renderTable(['tool', 'toolset', 'effect', 'destructive', 'idempotent', 'open world', 'default', 'command'], rows, ctx.io.colorOut, {
        columns: [{ keep: true, priority: 10 }, { keep: true, priority: 4 }, { priority: 9 }, { priority: 6 }, { priority: 5 }, { priority: 3 }, { priority: 1 }, { priority: 2 }],
      }),
    );
  });
}
