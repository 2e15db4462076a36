// JSON Schemas of the tools, made from their zod inputs (the shared request schemas): what the
// caller may send (`io: 'input'`: "1500" and 1500 both, before transforms). Rules JSON Schema
// cannot state (refinements) are still checked when the call is made.
import * as z from 'zod';
import type { ToolSpec } from './tool.js';
import { TOKEN_ARGUMENT } from './invoke.js';

export type JsonSchema = Record<string, unknown> & { type: 'object' };

export function inputSchemaOf(tool: ToolSpec, twoStep: boolean): JsonSchema {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema; // the protocol's default dialect; some clients refuse a $schema they do not know
  if (twoStep) {
    schema.properties = {
      ...(schema.properties as Record<string, unknown>),
      [TOKEN_ARGUMENT]: {
        type: 'string',
        description: 'production writes are two-step: leave it out to get a preview and a token; send the same arguments with the token (within 5 minutes, once) to make the call',
      },
    };
  }
  return schema;
}

/**
 * Every tool's result is an object: the command's --json data (a list as `items`), a two-step
 * preview, or an error. The shape of the data is the gateway's own, so it is described, not fixed.
 */
export function outputSchemaOf(tool: ToolSpec): JsonSchema {
  return {
    type: 'object',
    description: `The data \`${tool.command} --json\` prints: an object as it is, a list as {"items": [...]}. A two-step production preview is {"preview", "${TOKEN_ARGUMENT}", "expires_at"}; an error (isError) is {"error": {"code", "message", "details", "status", "hint"}}.`,
    properties: {
      items: { type: 'array', description: 'a list result' },
      error: { type: 'object', description: 'present when isError is true' },
      preview: { type: 'object', description: 'the request a two-step production call would send' },
      [TOKEN_ARGUMENT]: { type: 'string' },
      expires_at: { type: 'string' },
    },
    additionalProperties: true,
  };
}
