// pgw mcp driven by the MCP SDK's own Client: in-process (run() with streams, so a test can give
// it a clock and a transport) or as the built binary over stdio (StdioClientTransport).
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { run } from '../../src/main.js';
import type { ContextDeps, Env } from '../../src/context.js';

/** A client transport over a pair of streams: what StdioClientTransport does, without a process. */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Close stdin; resolves with run()'s exit code. */
  close(): Promise<number>;
}

/** `pgw <argv>` (argv includes `mcp`) in this process, with `deps` (env, dispatcher, clock). */
export async function mcpInProcess(argv: string[], deps: Omit<ContextDeps, 'stdin' | 'stdout' | 'stderr' | 'env'> & { env: Env }): Promise<McpSession> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errText = '';
  stderr.on('data', (c: Buffer) => (errText += c.toString('utf8')));
  const sink = { write: (text: string) => stdout.write(text), isTTY: false };
  const exited = run(argv, { ...deps, stdin, stdout: sink, stderr });
  const client = new Client({ name: 'pgw-test', version: '1.0.0' });
  await client.connect(new StreamTransport(stdin, stdout));
  return {
    client,
    stderr: () => errText,
    close: async () => {
      await client.close();
      return exited;
    },
  };
}

/** The built binary, as an agent starts it. */
export async function mcpProcess(args: string[], env: Record<string, string>, node = process.execPath): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: node, args: ['bin/pgw.js', ...args], env, stderr: 'pipe', cwd: process.cwd() });
  let errText = '';
  transport.stderr?.on('data', (c: Buffer) => (errText += c.toString('utf8')));
  const client = new Client({ name: 'pgw-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => errText,
    close: async () => {
      await client.close();
      return 0;
    },
  };
}

export interface ToolCall {
  isError: boolean;
  data: Record<string, unknown>;
  text: string;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text?: string }[];
  return { isError: r.isError === true, data: (r.structuredContent ?? {}) as Record<string, unknown>, text: content.map((c) => c.text ?? '').join('\n') };
}
