// CORS in a real browser (issue 14): a page served from another loopback origin calls the sandbox
// with fetch and the gateway's headers, as the vendor's web client does. Chromium sends the
// preflight, then the call; an error answer is readable by the page. A page from an origin that
// is not allowed gets nothing: the browser refuses it the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium } from './chromium.js';
import { startHarness, type Harness } from '../sandbox/harness.js';

// CI installs chromium (.ci/run); elsewhere the test says plainly that it did not run.
const available = chromiumAvailable;

let h: Harness;
let browser: Browser;
const log: string[] = [];
const servers: Server[] = [];

/** The merchant's web app: an empty page on its own origin. */
async function appServer(host: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>merchant app</title><h1>app</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  return `${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (!available) return;
  h = await startHarness({ log: (line) => log.push(line) });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  if (!available) return;
  await browser?.close();
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  await h.close();
});

interface Answer {
  ok: boolean;
  status?: number;
  body?: any;
  error?: string;
}

/** fetch from inside the page, with the headers the vendor's client sends. */
function callFromPage(page: Page, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        return { ok: true, status: res.status, body: await res.json() };
      } catch (err) {
        return { ok: false, error: String(err) };
      }
    },
    { url, init },
  );
}

describe.skipIf(!available)('a browser page on another loopback origin', () => {
  it('preflight, then the call, then an error answer the page can read', async () => {
    const port = await appServer('127.0.0.1');
    const page = await browser.newPage();
    // localhost and 127.0.0.1 are different origins to the browser: this is a cross-origin call.
    await page.goto(`http://localhost:${port}/`);
    const headers = {
      'X-Client-ID': h.merchant.client_id,
      'X-Client-Secret': h.merchant.client_secret,
      'X-API-Version': '2.0.0',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    log.length = 0;
    const created = await callFromPage(page, `${h.sandbox.baseUrl}/pg/payment-links/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: '1499.00', reference_id: 'web1a2b3c4d5e', product: { description: 'Annual plan' } }),
    });
    // vendor N9: a created link is 201.
    expect(created).toMatchObject({ ok: true, status: 201, body: { success: true, data: { payment_link: expect.stringContaining('/p/'), amount: '1499.00' } } });
    // The browser asked first (OPTIONS → 204), then sent the POST. (Read from the request log,
    // whatever its exact layout: method, path and status on one line.)
    const preflight = log.findIndex((l) => /\bOPTIONS\b.*\/pg\/payment-links\/.*\b204\b/.test(l));
    const post = log.findIndex((l) => /\bPOST\b.*\/pg\/payment-links\/.*\b201\b/.test(l));
    expect(preflight).toBeGreaterThanOrEqual(0);
    expect(post).toBeGreaterThan(preflight);

    const missing = await callFromPage(page, `${h.sandbox.baseUrl}/pg/orders/OD00000000000000/`, { method: 'GET', headers: { ...headers, 'Cache-Control': 'no-cache', 'Accept-Language': 'en-US' } });
    expect(missing).toMatchObject({ ok: true, status: 404, body: { success: false, error: { code: 'ERR_ORDER_001', message: 'Order not found' } } });
    const unauthorised = await callFromPage(page, `${h.sandbox.baseUrl}/pg/orders/OD00000000000000/`, { method: 'GET', headers: { Accept: 'application/json', 'X-Client-ID': 'nobody', 'X-Client-Secret': 'wrong' } });
    expect(unauthorised).toMatchObject({ ok: true, status: 401, body: { error: { code: 'ERR_AUTH_001' } } });
    await page.close();
  });

  it('a page from an origin that is not allowed cannot read anything', async () => {
    // 127.0.0.2 is loopback to the kernel but not one of the allowed origins.
    const port = await appServer('127.0.0.2');
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.2:${port}/`);
    log.length = 0;
    const r = await callFromPage(page, `${h.sandbox.baseUrl}/pg/payment-links/`, {
      method: 'GET',
      headers: { 'X-Client-ID': h.merchant.client_id, 'X-Client-Secret': h.merchant.client_secret },
    });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/Failed to fetch/);
    // Refused at the preflight: the GET itself was never sent.
    expect(log.some((l) => /\bOPTIONS\b.*\/pg\/payment-links\/.*\b403\b/.test(l))).toBe(true);
    expect(log.some((l) => /\bGET\b.*\/pg\/payment-links\//.test(l))).toBe(false);
    await page.close();
  });
});
