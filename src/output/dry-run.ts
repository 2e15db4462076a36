// --dry-run output: the request that would be sent, already redacted by the client's preview().
import type { IO } from './io.js';
import type { OutputOptions } from './options.js';
import { emit } from './render.js';

/**
 * The request as the printer needs it. Declared here, not taken from the API layer (output never
 * imports api): the client's RequestPreview has this shape, and the compiler checks each call.
 */
export interface DryRunRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export async function printDryRun(io: IO, output: OutputOptions, preview: DryRunRequest): Promise<void> {
  await emit(io, output, preview, () => {
    const lines = [`${preview.method} ${preview.url}`];
    for (const [name, value] of Object.entries(preview.headers)) lines.push(`${name}: ${value}`);
    if (preview.body !== undefined) lines.push('', JSON.stringify(preview.body, null, 2));
    io.out(`${lines.join('\n')}\n`);
    io.err('dry run: nothing was sent\n');
  });
}
