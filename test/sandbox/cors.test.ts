// CORS (docs/sandbox.md "Meeting real clients"): loopback origins on any port and --cors-origin
// ones are answered with their own origin (never *); anyone else gets no Access-Control-* header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { normaliseOrigin } from '../../src/sandbox/cors.js';
import { runCli } from '../helpers/run.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ corsOrigins: ['https://app.example.com'] });
});
afterAll(() => h.close());

function preflight(origin: string, headers = 'x-client-id,x-client-secret,x-api-version,content-type') {
  return request(`${h.sandbox.baseUrl}/pg/orders/`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });
}

describe('preflight', () => {
  it.each(['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'http://localhost', 'https://app.example.com'])('%s is allowed', async (origin) => {
    const r = await preflight(origin);
    await r.body.text();
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(origin);
    expect(String(r.headers['access-control-allow-headers']).toLowerCase().split(', ')).toEqual(
      expect.arrayContaining(['x-client-id', 'x-client-secret', 'x-api-version', 'x-merchant-id', 'content-type', 'accept', 'accept-language', 'cache-control']),
    );
    expect(r.headers['access-control-allow-methods']).toContain('POST');
    expect(r.headers.vary).toContain('Origin');
  });

  it.each(['https://evil.example', 'http://localhost.evil.example:80', 'https://localhost:5173', 'http://127.0.0.2:80', 'null', 'https://app.example.com:444'])(
    '%s is refused without any CORS header',
    async (origin) => {
      const r = await preflight(origin);
      await r.body.text();
      expect(r.statusCode).toBe(403);
      for (const name of Object.keys(r.headers)) expect(name.startsWith('access-control-')).toBe(false);
    },
  );
});

describe('answers', () => {
  it('a success and an error both carry the allowed origin, never *', async () => {
    const ok = await h.call('GET', '/pg/payments/PR0000000000/', { headers: { origin: 'http://localhost:5173' } });
    expect(ok.status).toBe(404);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const list = await h.call('GET', '/pg/payment-links/', { headers: { origin: 'http://127.0.0.1:9999' } });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe('http://127.0.0.1:9999');
    const noAuth = await h.call('GET', '/pg/payment-links/', { as: 'none', headers: { origin: 'http://127.0.0.1:9999' } });
    expect(noAuth.status).toBe(401);
    expect(noAuth.headers['access-control-allow-origin']).toBe('http://127.0.0.1:9999');
  });

  it('a disallowed origin is answered (servers cannot stop a simple request) but without the header', async () => {
    const r = await h.call('GET', '/pg/payment-links/', { headers: { origin: 'https://evil.example' } });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a request without Origin gets no CORS headers (curl, pgw)', async () => {
    const r = await h.call('GET', '/pg/payment-links/');
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('--cors-origin', () => {
  it('takes origins only', () => {
    expect(normaliseOrigin('https://App.Example.com/')).toBe('https://app.example.com');
    expect(normaliseOrigin('http://devbox.local:3000')).toBe('http://devbox.local:3000');
    for (const bad of ['*', 'https://app.example.com/path', 'app.example.com', 'ftp://x.example', 'https://a.example?x=1', '']) expect(normaliseOrigin(bad)).toBeUndefined();
  });

  it('pgw sandbox serve refuses * and non-origins before listening (exit 2)', async () => {
    const star = await runCli(['sandbox', 'serve', '--port', '0', '--cors-origin', '*']);
    expect(star.code).toBe(2);
    expect(star.stderr).toContain('is not allowed: name each origin');
    const path = await runCli(['sandbox', 'serve', '--port', '0', '--cors-origin', 'https://a.example/app']);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('is not an origin');
  });
});
