// multipart/form-data in the HTTP core (api/form.ts, client.ts; issue 36): the body as sent, the
// secret redacted as on every request, and a file's bytes never in the preview or the -v log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { createClient } from '../../src/api/client.js';
import { describeForm, encodeForm } from '../../src/api/form.js';
import type { FormField } from '../../src/api/types.js';
import { parseMultipart } from '../../src/sandbox/multipart.js';

const BASE = 'https://gw.test';
const SECRET = 'sekret-marker-1234';
const BYTES = Buffer.from('%PDF-1.4\nFILE-BYTES-MARKER\n%%EOF\n');
const FORM: FormField[] = [
  { name: 'identifier', value: 'INV-1' },
  { name: 'document_type', value: 'invoice' },
  { name: 'file', filename: 'in"voice\r\n.pdf', contentType: 'application/pdf', data: BYTES },
];

let agent: MockAgent;
beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

const client = (log?: (line: string) => void) =>
  createClient({ baseUrl: BASE, clientId: 'cid', clientSecret: SECRET, apiVersion: '3.0.0', timeoutMs: 5000, dispatcher: agent, userAgent: 'pgw/test', log });

describe('a form request', () => {
  it('is sent as multipart/form-data the sandbox reads back part by part; -v logs no file bytes', async () => {
    let seen: { headers: Record<string, string>; body: Buffer } | undefined;
    agent
      .get(BASE)
      .intercept({ path: '/pg/orders/OD1/documents/', method: 'POST' })
      .reply((opts) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(opts.headers as Record<string, string>)) headers[k.toLowerCase()] = String(v);
        seen = { headers, body: Buffer.from(opts.body as Uint8Array) };
        return { statusCode: 200, data: { success: true, message: 'Documents uploaded successfully', data: { order_id: 'OD1' } }, responseOptions: { headers: { 'content-type': 'application/json' } } };
      });
    const lines: string[] = [];
    const data = await client((l) => lines.push(l)).request({ method: 'POST', path: '/pg/orders/OD1/documents/', form: FORM });
    expect(data).toEqual({ order_id: 'OD1' });
    expect(seen!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=----pgw-form-[0-9a-f]{24}$/);
    expect(seen!.headers['x-client-secret']).toBe(SECRET);
    const parts = parseMultipart(seen!.body, seen!.headers['content-type']);
    expect(parts.map((p) => [p.name, p.filename ?? null])).toEqual([['identifier', null], ['document_type', null], ['file', 'in%22voice%0D%0A.pdf']]);
    expect(parts[2]!.data.equals(BYTES)).toBe(true);
    const log = lines.join('\n');
    expect(log).toContain('X-Client-Secret: [redacted]');
    expect(log).toContain('"bytes": 33');
    expect(log).not.toContain('FILE-BYTES-MARKER');
    expect(log).not.toContain(SECRET);
  });

  it('previews as names, values, file name, type and size', () => {
    const preview = client().preview({ method: 'POST', path: '/pg/orders/OD1/documents/', form: FORM });
    expect(preview.headers['X-Client-Secret']).toBe('[redacted]');
    expect(preview.body).toEqual(describeForm(FORM));
    expect(JSON.stringify(preview)).not.toContain('FILE-BYTES-MARKER');
  });

  it('ends with the closing boundary, each part framed by CRLF', () => {
    const text = encodeForm([{ name: 'a', value: 'b' }], 'XB').toString();
    expect(text).toBe('--XB\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XB--\r\n');
  });
});
