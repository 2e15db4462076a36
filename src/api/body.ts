// Reading a response body with a ceiling. The gateway's largest answers (a settlement with all
// its transactions, a 1000-merchant page) are a few MB; a base URL pointing at a file server, or a
// proxy gone wrong, must not make pgw buffer hundreds of MB and then print them (docs/cli.md, HTTP).
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors.js';

export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The body as text (UTF-8, BOM dropped), or GatewayError RESPONSE_TOO_LARGE past `limit` bytes. */
export async function readLimitedBody(res: Dispatcher.ResponseData, host: string, limit: number = MAX_RESPONSE_BYTES): Promise<string> {
  const declared = res.headers['content-length'];
  // Refused on the declaration alone: nothing of it is read.
  if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > limit) {
    discard(res.body);
    throw tooLarge(res.statusCode, host, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      discard(res.body);
      throw tooLarge(res.statusCode, host, limit);
    }
    chunks.push(chunk);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks, size));
}

/**
 * Stop reading and drop the connection. undici's body emits an abort error when destroyed before
 * its end: with no listener that would be an uncaught exception (a stack trace on stderr).
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(status: number, host: string, limit: number): GatewayError {
  return new GatewayError(`response from ${host} is larger than ${describeBytes(limit)}: refused`, {
    code: 'RESPONSE_TOO_LARGE',
    status,
    suggestion: 'no gateway answer is that large: check the base URL points at the gateway (pgw profile show, --base-url)',
  });
}

function describeBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}
