// The sandbox's multipart/form-data reader (multipart.ts) against what pgw's HTTP core (api/form.ts)
// and a browser's FormData (undici's, as Node's fetch sends it) write, and against broken bodies.
import { describe, expect, it } from 'vitest';
import { encodeForm } from '../../src/api/form.js';
import { multipartBoundary, parseMultipart } from '../../src/sandbox/multipart.js';
import { SandboxError } from '../../src/sandbox/errors.js';

const BYTES = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);

describe('multipart', () => {
  it("reads pgw's own encoding: text fields and a file with CRLF and dashes inside", () => {
    const body = encodeForm([{ name: 'identifier', value: 'INV "7"\u20ac' }, { name: 'file', filename: 'a b.pdf', contentType: 'application/pdf', data: BYTES }], 'XyZ');
    const parts = parseMultipart(body, 'multipart/form-data; boundary=XyZ');
    expect(parts.map((p) => p.name)).toEqual(['identifier', 'file']);
    expect(parts[0]!.data.toString('utf8')).toBe('INV "7"\u20ac');
    expect(parts[0]!.filename).toBeUndefined();
    expect(parts[1]).toMatchObject({ filename: 'a b.pdf', contentType: 'application/pdf' });
    expect(parts[1]!.data.equals(BYTES)).toBe(true);
  });

  it("reads what a browser's FormData sends", async () => {
    const form = new FormData();
    form.append('document_type', 'awb');
    form.append('file', new Blob([BYTES], { type: 'image/jpeg' }), 'scan.jpg');
    const req = new Request('http://x.invalid/', { method: 'POST', body: form });
    const body = Buffer.from(await req.arrayBuffer());
    const parts = parseMultipart(body, req.headers.get('content-type')!);
    expect(parts.find((p) => p.name === 'document_type')!.data.toString()).toBe('awb');
    const file = parts.find((p) => p.name === 'file')!;
    expect(file.filename).toBe('scan.jpg');
    expect(file.data.equals(BYTES)).toBe(true);
  });

  it('refuses a broken body with 400 ERR_REQUEST_003, never a crash', () => {
    const good = encodeForm([{ name: 'a', value: 'b' }], 'B');
    for (const [body, type] of [
      [good, 'multipart/form-data'],
      [Buffer.from('nothing here'), 'multipart/form-data; boundary=B'],
      [good.subarray(0, good.length - 8), 'multipart/form-data; boundary=B'],
      [Buffer.from('--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n'), 'multipart/form-data; boundary=B'],
    ] as const) {
      let caught: unknown;
      try {
        parseMultipart(body, type);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(SandboxError);
      expect((caught as SandboxError).code).toBe('ERR_REQUEST_003');
    }
  });

  it('knows a multipart Content-Type and its boundary, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('Multipart/Form-Data;boundary=----x')).toBe('----x');
    expect(multipartBoundary('application/json')).toBeUndefined();
  });
});

describe('a multipart body the sandbox cannot read, over HTTP', () => {
  it('is 400 ERR_REQUEST_003 in the error envelope, and the order is unchanged', async () => {
    const { startHarness, paidOrder } = await import('./harness.js');
    const h = await startHarness();
    try {
      const { orderId } = await paidOrder(h);
      const broken = Buffer.from('--B\r\nContent-Disposition: form-data; name="identifier"\r\n\r\nINV-1\r\n--B'); // no closing boundary
      const r = await h.call('POST', `/pg/orders/${orderId}/documents/`, { raw: broken, headers: { 'content-type': 'multipart/form-data; boundary=B' } });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('ERR_REQUEST_003');
      const order = await h.call('GET', `/pg/orders/${orderId}/`);
      expect(order.body.data.invoice.file ?? null).toBeNull();
    } finally {
      await h.close();
    }
  });
});
