import { describe, expect, it } from 'vitest';
import { classify, errorFromResponse, failureKind, networkError, unexpectedResponse } from '../../src/api/errors.js';
import { AuthError, ExitCode, GatewayError, NetworkError, NotFoundError, exitCodeFor } from '../../src/errors.js';

const SECRET = 'sekret-marker-1234';
const envelope = (code: string, message: string, details?: Record<string, unknown>) =>
  JSON.stringify({ success: false, error: { code, message, ...(details ? { details } : {}) } });

describe('classify', () => {
  it.each([
    [400, 'ERR_PAYMENT_005', 'notFound'],
    [400, 'ERR_SETTLEMENT_002', 'notFound'],
    [400, 'MERCHANT_NOT_FOUND', 'notFound'],
    [200, 'err_order_not_found', 'notFound'],
    [400, 'ERR_AUTH_000', 'auth'],
    [200, 'ERR_AUTH_017', 'auth'],
    [401, undefined, 'auth'],
    [403, 'SOMETHING', 'auth'],
    [404, undefined, 'notFound'],
    [404, 'ERR_SERVICE_ERROR_000', 'notFound'],
    [400, 'ERR_SERVICE_ERROR_000', 'gateway'],
    [400, 'PAYMENT_GATEWAY_VALIDATION_ERROR', 'gateway'],
    [500, undefined, 'gateway'],
  ] as const)('%i %s → %s', (status, code, kind) => {
    expect(classify(status, code)).toBe(kind);
  });
});

describe('errorFromResponse', () => {
  it.each([
    [400, envelope('ERR_SERVICE_ERROR_000', 'Payment gateway error'), GatewayError, ExitCode.gateway],
    [401, envelope('ERR_AUTH_000', 'Missing credentials'), AuthError, ExitCode.auth],
    [403, '{"detail":"forbidden"}', AuthError, ExitCode.auth],
    [404, '{"detail":"Not found."}', NotFoundError, ExitCode.notFound],
    [400, envelope('ERR_PAYMENT_005', 'Payment not found'), NotFoundError, ExitCode.notFound],
    [400, envelope('ERR_SETTLEMENT_002', 'Settlement not found'), NotFoundError, ExitCode.notFound],
    [429, '{"detail":"slow down"}', GatewayError, ExitCode.gateway],
    [500, envelope('PAYMENT_GATEWAY_API_ERROR', 'Payment gateway API error'), GatewayError, ExitCode.gateway],
    [502, '<html><body>Bad gateway</body></html>', GatewayError, ExitCode.gateway],
    [503, '', GatewayError, ExitCode.gateway],
    [504, 'upstream timed out', GatewayError, ExitCode.gateway],
  ])('%i %s', (status, body, type, exit) => {
    const err = errorFromResponse(status, body, {});
    expect(err).toBeInstanceOf(type);
    expect(exitCodeFor(err)).toBe(exit);
    expect(err.status).toBe(status);
  });

  it('carries code, message, details and a suggestion', () => {
    const err = errorFromResponse(400, envelope('ERR_SERVICE_ERROR_000', 'Payment gateway error', { payment_uids: ['PR1 is not captured'], refund_uids: [] }));
    expect(err.code).toBe('ERR_SERVICE_ERROR_000');
    expect(err.message).toBe('Payment gateway error (ERR_SERVICE_ERROR_000)');
    expect(err.details).toEqual({ payment_uids: ['PR1 is not captured'], refund_uids: [] });
  });

  it('suggests checking credentials on auth failures', () => {
    expect(errorFromResponse(401, '{}').suggestion).toContain('pgw profile show');
    expect(errorFromResponse(400, envelope('ERR_AUTH_000', 'Missing credentials', { authentication: 'x' })).suggestion).toContain('PGW_CLIENT_SECRET');
  });

  it('describes a non-JSON body without dumping it', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
    const err = errorFromResponse(502, html, { 'content-type': 'text/html; charset=utf-8' });
    expect(err.message).toBe('gateway answered 502 Bad Gateway with a non-JSON body (text/html)');
    expect(err.message).not.toContain('<');
    expect(err.details).toBeUndefined();
  });

  it('accepts an already parsed body and success:false under a 200', () => {
    const err = errorFromResponse(200, { success: false, error: { code: 'PAYMENT_GATEWAY_ERROR', message: 'This endpoint is not available in production' } });
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.code).toBe('PAYMENT_GATEWAY_ERROR');
  });

  it('keeps a string error field as the message', () => {
    expect(errorFromResponse(400, '{"success":false,"error":"bad thing"}').message).toBe('bad thing');
  });

  it('falls back to the status when the body says nothing', () => {
    expect(errorFromResponse(500, '{"success":false}').message).toBe('gateway answered 500 Internal Server Error');
  });

  it('wraps non-object details', () => {
    const body = JSON.stringify({ success: false, error: { code: 'X', message: 'y', details: 'text' } });
    expect(errorFromResponse(400, body).details).toEqual({ details: 'text' });
  });

  it('redacts the secret and card data from message and details', () => {
    const body = envelope('ERR_X', `bad secret ${SECRET}`, { echo: `header was ${SECRET}`, card_details: { number: '4111111111111111', cvv: '123' } });
    const err = errorFromResponse(400, body, {}, { secret: SECRET });
    const all = JSON.stringify({ m: err.message, d: err.details, s: err.suggestion });
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain('4111111111111111');
    expect(all).not.toContain('cvv');
  });

  it('mentions Retry-After on 429', () => {
    expect(errorFromResponse(429, '', { 'retry-after': '7' }).suggestion).toContain('7 s');
  });
});

describe('unexpectedResponse', () => {
  it('is a gateway error naming the status', () => {
    const err = unexpectedResponse(200, 'a non-JSON body');
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.message).toBe('unexpected response from the gateway: 200 OK with a non-JSON body');
  });
});

describe('transport failures', () => {
  const url = new URL('https://gw.test:8443/pg/payments/PR1/');
  const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

  it.each([
    [withCode('ECONNREFUSED'), 'connection', 'could not connect to gw.test:8443: connection refused'],
    [withCode('ENOTFOUND'), 'connection', 'could not resolve host gw.test'],
    [withCode('ECONNRESET'), 'connection', 'connection to gw.test:8443 closed before the response was complete'],
    [withCode('UND_ERR_SOCKET'), 'connection', 'connection to gw.test:8443 closed before the response was complete'],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), 'timeout', 'request timed out after 250 ms (gw.test:8443)'],
    [withCode('UND_ERR_BODY_TIMEOUT'), 'timeout', 'request timed out after 250 ms (gw.test:8443)'],
    [new AggregateError([withCode('ECONNREFUSED')], 'all failed'), 'connection', 'could not connect to gw.test:8443: connection refused'],
    [new Error('weird'), 'other', 'request to gw.test:8443 failed: weird'],
  ])('%s', (err, kind, message) => {
    expect(failureKind(err)).toBe(kind);
    const net = networkError(err, { url, timeoutMs: 250 });
    expect(net).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(net)).toBe(ExitCode.network);
    expect(net.message).toBe(message);
  });

  it('reports our own deadline as a timeout', () => {
    expect(networkError(new Error('aborted'), { url, timeoutMs: 99, timedOut: true }).message).toBe('request timed out after 99 ms (gw.test:8443)');
  });

  it('redacts the secret from unknown failures', () => {
    expect(networkError(new Error(`bad header ${SECRET}`), { url, timeoutMs: 1, secret: SECRET }).message).not.toContain(SECRET);
  });
});
