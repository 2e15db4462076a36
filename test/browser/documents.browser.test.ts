// The vendor's "upload documents" page in a real browser (vendor 11.1; issue 36): a page on another
// loopback origin builds a FormData with the file the user picked and POSTs it to
// /pg/orders/{order_id}/documents/ with the gateway's headers and no Content-Type of its own (the
// browser writes the multipart boundary). Chromium sends the preflight, then the upload; the page
// reads the order back and opens the file at the address it was given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium } from './chromium.js';
import { orderBody, startHarness, type Harness } from '../sandbox/harness.js';

const available = chromiumAvailable;
let h: Harness;
let browser: Browser;
let app: Server;
const log: string[] = [];

beforeAll(async () => {
  if (!available) return;
  h = await startHarness({ log: (line) => log.push(line) });
  browser = await launchChromium();
  app = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>upload documents</title><input type="file" id="f">');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
}, 60_000);

afterAll(async () => {
  if (!available) return;
  await browser?.close();
  await new Promise((resolve) => app.close(resolve));
  await h.close();
});

const PDF = '%PDF-1.4\nbrowser upload\n%%EOF\n';

describe.skipIf(!available)("the vendor's upload documents page", () => {
  it('FormData from a page on another origin: preflight, upload, the order read back, the file opened', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: `browser-docs-${Date.now()}` }) });
    expect(created.status).toBe(201);
    const orderId = created.body.data.order_id as string;
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(app.address() as AddressInfo).port}/`);
    // The file input as the user fills it: playwright sets the picked file on the page's <input>.
    await page.setInputFiles('#f', { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) });
    log.length = 0;
    const answer = await page.evaluate(
      async ({ base, orderId, id, secret }) => {
        // (the page's DOM: this file is compiled without the DOM's types)
        const page = globalThis as unknown as { document: { getElementById(id: string): { files: Blob[] } } };
        const picked = page.document.getElementById('f').files[0]!;
        const form = new FormData();
        form.append('identifier', orderId);
        form.append('document_type', 'invoice');
        form.append('file', picked, 'invoice.pdf');
        const headers = { 'X-Client-ID': id, 'X-Client-Secret': secret, 'X-API-Version': '3.0.0', Accept: 'application/json' };
        const res = await fetch(`${base}/pg/orders/${orderId}/documents/`, { method: 'POST', headers, body: form });
        const body = (await res.json()) as { data: { invoice: { file: string } } };
        const file = await fetch(body.data.invoice.file);
        return { status: res.status, body, fileStatus: file.status, fileType: file.headers.get('content-type'), fileText: await file.text() };
      },
      { base: h.sandbox.baseUrl, orderId, id: h.merchant.client_id, secret: h.merchant.client_secret },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: 'Documents uploaded successfully', data: { order_id: orderId, invoice: { file: expect.stringContaining('/documents/DOC') } } });
    expect(answer).toMatchObject({ fileStatus: 200, fileType: 'application/pdf', fileText: PDF });
    const preflight = log.findIndex((l) => /\bOPTIONS\b.*\/documents\/.*\b204\b/.test(l));
    const post = log.findIndex((l) => /\bPOST\b.*\/documents\/.*\b200\b/.test(l));
    expect(preflight).toBeGreaterThanOrEqual(0);
    expect(post).toBeGreaterThan(preflight);
    await page.close();
  }, 60_000);
});
