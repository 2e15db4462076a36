// `pgw mcp`'s server: the MCP SDK's Server on stdio, with the tools catalog.ts offers for this
// profile. Calls run one at a time (each is a command-line run of its own, with its own context).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { ConfirmationTokens } from './confirm.js';
import { inputSchemaOf } from './schema.js';
import { annotationsOf, isTwoStep, type Gateway, type ToolSpec } from './tool.js';

export interface ServerSetting {
  gateway: Gateway;
  /** The tools offered, loaded on the first tools/list or tools/call. */
  tools: () => Promise<ToolSpec[]>;
  /** For the agent: which gateway this is and what the rails do (the initialize answer). */
  instructions: string;
}

export interface PgwServer {
  server: Server;
  /** Settles once every call received so far has answered. */
  idle(): Promise<void>;
}

export function createServer(ctx: Context, setting: ServerSetting): PgwServer {
  const server = new Server({ name: 'pgw', title: 'pgw: payment gateway CLI and sandbox', version: ctx.version }, { capabilities: { tools: { listChanged: false } }, instructions: setting.instructions });
  const tokens = new ConfirmationTokens(() => ctx.clock().getTime());
  let loaded: Promise<ToolSpec[]> | undefined;
  const tools = () => (loaded ??= setting.tools());
  // Requests being answered: a client that sends its last request and closes stdin (a script)
  // still gets every answer before the server stops.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    inFlight++;
    return work().finally(() => {
      if (--inFlight === 0) drained?.();
    });
  };

  server.setRequestHandler(ListToolsRequestSchema, () => track(async () => ({
    tools: (await tools()).map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputSchemaOf(t, isTwoStep(t, setting.gateway)),
      annotations: annotationsOf(t, setting.gateway.embedded),
    })),
  })));

  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    track(async () => {
      const offered = await tools();
      const tool = offered.find((t) => t.name === request.params.name);
      if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}": tools/list names the ones offered`);
      // The call's machinery (argument checks, wording, file digests) loads with the first call.
      const call = queue.then(async () => (await import('./invoke.js')).callTool(ctx, tool, request.params.arguments ?? {}, { gateway: setting.gateway, tokens, offered }));
      queue = call.catch(() => undefined);
      return call;
    }),
  );
  // A turn of the event loop first: an answer just made (initialize) is written before the count is read.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    server,
    idle: async () => {
      await settle();
      while (inFlight > 0) {
        await new Promise<void>((resolve) => (drained = resolve));
        await settle();
      }
    },
  };
}

/**
 * Serve on the run's stdin and stdout until the client closes stdin or the run is stopped (Ctrl-C,
 * SIGTERM). Every protocol message goes through the output guard's known-secret check as well.
 */
export async function serveStdio(ctx: Context, setting: ServerSetting): Promise<void> {
  const { server, idle } = createServer(ctx, setting);
  const stdin = ctx.io.stdin;
  const sink = ctx.io.stdout;
  const stdout = {
    write(text: string) {
      sink.write(ctx.guard.known(text));
      return true;
    },
    once() {
      return stdout;
    },
  } as unknown as Writable;
  const transport: Transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    const done = () => resolve();
    stdin.once('end', done);
    stdin.once('close', done);
    ctx.signal.addEventListener('abort', done, { once: true });
    server.onclose = done;
  });
  await server.connect(transport);
  await closed;
  // A client that writes its last request and closes stdin (a script) still gets every answer.
  await idle();
  await server.close();
}
