// Card details (spec 2.5) come only from --card-file, piped stdin or masked prompts, never from
// flags. The HTTP core keeps the raw number and CVV out of dry runs, --verbose and errors
// (src/safety/card-values.ts); result.ts scrubs the 3-D Secure page before it is written.
import { UsageError } from '../../errors.js';
import type { InStream } from '../../output/io.js';
import { readJsonObject, type JsonObject } from './read-json.js';

export async function readCardFile(source: string, stdin: InStream): Promise<JsonObject> {
  if (source === '-' && stdin.isTTY) {
    // Typing the JSON into a terminal would echo the card number on screen.
    throw new UsageError('--card-file - needs the card JSON piped in; in a terminal leave --card-file out to be asked with masked prompts');
  }
  return readJsonObject('--card-file', source, stdin);
}
