// --dry-run output: the request that would be sent, already redacted by the client's preview().
import type { RequestPreview } from '../api/types.js';
import type { IO } from './io.js';
import type { OutputOptions } from '../context.js';
import { emit } from './render.js';

export async function printDryRun(io: IO, output: OutputOptions, preview: RequestPreview): Promise<void> {
  await emit(io, output, preview, () => {
    const lines = [`${preview.method} ${preview.url}`];
    for (const [name, value] of Object.entries(preview.headers)) lines.push(`${name}: ${value}`);
    if (preview.body !== undefined) lines.push('', JSON.stringify(preview.body, null, 2));
    io.out(`${lines.join('\n')}\n`);
    io.err('dry run: nothing was sent\n');
  });
}
