// Which hosts a sandbox bound beyond loopback may post webhooks to (issue 21 item 8).
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, normaliseWebhookHost, webhookHostPolicy } from '../../src/sandbox/webhook-hosts.js';

describe('webhookHostPolicy', () => {
  it('bound to loopback: every address may be posted to', () => {
    for (const bind of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(webhookHostPolicy(bind, [])).toBeUndefined();
  });

  it('bound beyond loopback: loopback and the allowed hosts only; the refusal names the flag and the host', () => {
    const refuse = webhookHostPolicy('0.0.0.0', ['Hooks.Example.com.', '10.1.2.3', '[fd00::1]'])!;
    for (const ok of ['http://127.0.0.1:3000/h', 'http://localhost/h', 'http://[::1]:9/h', 'https://hooks.example.com/x', 'http://10.1.2.3:8080/', 'http://[fd00::1]/h', 'http://app.localhost/h']) {
      expect(refuse(ok), ok).toBeUndefined();
    }
    expect(refuse('http://169.254.169.254/latest/meta-data/')).toMatch(/--allow-webhook-host 169\.254\.169\.254$/);
    expect(refuse('https://evil.example/x')).toMatch(/listens beyond loopback \(--host 0\.0\.0\.0\).*--allow-webhook-host evil\.example/);
    expect(refuse('http://hooks.example.com.evil.example/')).toBeDefined();
    expect(webhookHostPolicy('::', [])!('http://192.168.1.5/')).toMatch(/--allow-webhook-host 192\.168\.1\.5/);
  });

  it('normalises --allow-webhook-host values and refuses URLs', () => {
    expect(normaliseWebhookHost('Hooks.Example.COM')).toBe('hooks.example.com');
    expect(normaliseWebhookHost('fd00::1')).toBe('fd00::1');
    expect(normaliseWebhookHost('[fd00::1]')).toBe('fd00::1');
    for (const bad of ['https://x.example/', 'x.example/path', 'user@x', '', ' ']) expect(normaliseWebhookHost(bad), bad).toBeUndefined();
    expect(isLoopbackHost('127.9.9.9')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});
