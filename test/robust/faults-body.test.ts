// The response-size cap of the HTTP core (src/api/body.ts) at its edge, in-process against a real
// server: a body of exactly the limit is read, one byte more is refused (declared or chunked),
// never retried, and text decodes as UTF-8 with a BOM dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createClient } from '../../src/api/client.js';
import { MAX_RESPONSE_BYTES } from '../../src/api/body.js';
import { ExitCode, GatewayError, exitCodeFor } from '../../src/errors.js';

let server: Server;
let base: string;
let agent: Agent;
let hits = 0;
/** The next answer: an envelope padded to `size` bytes, sent declared or chunked. */
let answer: { size: number; declared: boolean; prefix?: string } = { size: 0, declared: true };

function envelope(size: number, prefix = ''): Buffer {
  const head = `${prefix}{"success":true,"message":"ok","data":{"pad":"`;
  const tail = '"}}';
  return Buffer.concat([Buffer.from(head), Buffer.alloc(size - Buffer.byteLength(head) - tail.length, 'x'), Buffer.from(tail)]);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    const body = envelope(answer.size, answer.prefix);
    res.on('error', () => {});
    if (answer.declared) res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    else res.writeHead(200, { 'content-type': 'application/json' });
    // Two writes, so a chunked answer really comes in pieces.
    res.write(body.subarray(0, body.length >> 1));
    res.end(body.subarray(body.length >> 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new Agent({ keepAliveTimeout: 10 });
});
afterAll(async () => {
  await agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const LIMIT = 4096;
const client = () =>
  createClient({ baseUrl: base, apiVersion: '3.0.0', timeoutMs: 5000, dispatcher: agent, userAgent: 'pgw/test', sleep: async () => {}, maxResponseBytes: LIMIT });

async function get(size: number, declared: boolean, prefix?: string) {
  answer = { size, declared, prefix };
  hits = 0;
  return client()
    .request<{ pad: string }>({ method: 'GET', path: '/pg/payments/PR0000000001/' })
    .then((data) => ({ data, err: undefined }), (err: unknown) => ({ data: undefined, err }));
}

describe.each([true, false])('declared Content-Length: %s', (declared) => {
  it('a body of exactly the limit is read', async () => {
    const { data, err } = await get(LIMIT, declared);
    expect(err).toBeUndefined();
    expect(data!.pad.length).toBeGreaterThan(4000);
  });

  it('one byte over the limit is refused as a gateway error (exit 1), sent once', async () => {
    const { err } = await get(LIMIT + 1, declared);
    expect(err).toBeInstanceOf(GatewayError);
    expect(exitCodeFor(err)).toBe(ExitCode.gateway);
    expect((err as GatewayError).code).toBe('RESPONSE_TOO_LARGE');
    expect((err as GatewayError).message).toMatch(/^response from 127\.0\.0\.1:\d+ is larger than 4096 bytes: refused$/);
    expect(hits).toBe(1);
  });
});

it('a UTF-8 body with a byte-order mark is read as the JSON it is', async () => {
  const { data, err } = await get(200, true, '\uFEFF');
  expect(err).toBeUndefined();
  expect(data!.pad).toMatch(/^x+$/);
});

it('the default cap is 32 MiB (docs/cli.md, HTTP)', () => {
  expect(MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
});
