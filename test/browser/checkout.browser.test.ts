// A real browser (Debian's chromium, driven by playwright-core) pays through the sandbox's
// buyer pages: the hosted checkout, and the 3-D Secure page an S2S card order's acs_template
// posts to. Each ends on return_url with the payment captured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium } from './chromium.js';
import { createClient } from '../../src/api/client.js';
import { createAgent } from '../../src/api/agent.js';
import type { ApiClient } from '../../src/api/types.js';
import { orderBody, startHarness, type Harness } from '../sandbox/harness.js';

// CI installs chromium (.ci/run); elsewhere the test says plainly that it did not run.
const available = chromiumAvailable;

let h: Harness;
let browser: Browser;
let api: ApiClient;
let shop: Server;
let returnUrl: string;
const agent = createAgent();

beforeAll(async () => {
  if (!available) return;
  h = await startHarness();
  api = createClient({
    baseUrl: h.sandbox.baseUrl,
    clientId: h.merchant.client_id,
    clientSecret: h.merchant.client_secret,
    apiVersion: '3.0.0',
    timeoutMs: 10_000,
    dispatcher: agent,
    userAgent: 'pgw-test',
  });
  // The merchant's site the buyer returns to.
  shop = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<h1>Thanks for your order</h1>');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  returnUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/shop/return`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  if (!available) return;
  await browser?.close();
  await new Promise((resolve) => shop.close(resolve));
  await agent.close();
  await h.close();
});

interface Payment {
  payment_id: string;
  status: string;
  order: { order_id: string };
}

describe.skipIf(!available)('buyer pages in headless Chromium', () => {
  it('hosted checkout: Pay lands on return_url and the payment is captured', async () => {
    const order = await api.request<{ order_id: string; session_id: string }>({ method: 'POST', path: '/pg/orders/', body: orderBody({ return_url: returnUrl }) });
    const page = await browser.newPage();
    await page.goto(`${h.sandbox.baseUrl}/checkout/${order.session_id}/`);
    await expect(page.getByTestId('amount').textContent()).resolves.toContain('1000.00');
    await Promise.all([page.waitForURL((url) => url.pathname === '/shop/return'), page.getByRole('button', { name: 'Pay' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('order_id')).toBe(order.order_id);
    expect(landed.searchParams.get('status')).toBe('captured');
    await expect(page.locator('h1').textContent()).resolves.toBe('Thanks for your order');
    const payment = await api.request<Payment>({ method: 'GET', path: `/pg/payments/${landed.searchParams.get('payment_id')}/` });
    expect(payment.status).toBe('captured');
    expect(payment.order.order_id).toBe(order.order_id);
    await page.close();
  });

  it('S2S card: the decoded acs_template auto-submits to 3-D Secure; Approve captures', async () => {
    const body = orderBody({
      return_url: returnUrl,
      collection_mode: 's2s',
      mop_type: 'credit_card',
      card_details: {
        number: '4111111111111111',
        cardholder_name: 'Asha Verma',
        expiry_month: '12',
        expiry_year: '2031',
        cvv: '123',
        network: 'visa',
        nickname: 'personal',
        identifier: 'cust-1',
      },
    });
    const order = await api.request<{ order_id: string; acs_template: string }>({ method: 'POST', path: '/pg/orders/', body });
    const page = await browser.newPage();
    // What a merchant does with acs_template: decode it and render it in the buyer's browser.
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/3ds/')),
      page.setContent(Buffer.from(order.acs_template, 'base64').toString('utf8')),
    ]);
    await expect(page.getByText('Card ending 1111').count()).resolves.toBe(1);
    await Promise.all([page.waitForURL((url) => url.pathname === '/shop/return'), page.getByRole('button', { name: 'Approve' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('status')).toBe('captured');
    const payment = await api.request<Payment>({ method: 'GET', path: `/pg/payments/${landed.searchParams.get('payment_id')}/` });
    expect(payment.status).toBe('captured');
    await page.close();
  });
});
