// JSON Schemas of the tools, made from their zod inputs (the shared request schemas): what the
// caller may send (`io: 'input'`: "1500" and 1500 both, before transforms). Rules JSON Schema
// cannot state (refinements) are still checked when the call is made; the conditional ones are
// said in the tool's description. No output schema is declared: a tool's data is the gateway's
// own, and a schema that describes none of it costs every agent tokens for nothing (issue 43).
import * as z from 'zod';
import { TOKEN_ARGUMENT, type ToolSpec } from './tool.js';

export type JsonSchema = Record<string, unknown> & { type: 'object' };

/**
 * A pattern an agent reads cheaply and any client's validator takes: short, and without Unicode
 * property escapes (`\p{L}` is refused by regex engines without the `u` flag). Longer ones (an
 * email's, an IPv6 address's) are left to the server's check, whose error says what is wrong.
 */
const MAX_PATTERN = 32;
const keepPattern = (p: unknown) => typeof p === 'string' && p.length <= MAX_PATTERN && !p.includes('\\p{');

function compact(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(compact);
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if ('pattern' in o && !keepPattern(o.pattern)) delete o.pattern;
  for (const v of Object.values(o)) compact(v);
}

export function inputSchemaOf(tool: ToolSpec, twoStep: boolean): JsonSchema {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema; // the protocol's default dialect; some clients refuse a $schema they do not know
  compact(schema);
  if (twoStep) {
    schema.properties = {
      ...(schema.properties as Record<string, unknown>),
      [TOKEN_ARGUMENT]: { type: 'string', description: 'leave out for a preview and a token; then the same arguments with the token send it' },
    };
  }
  return schema;
}
