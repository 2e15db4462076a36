// The sandbox through the real binary: the README's main-job command on a fresh config
// directory, `sandbox serve` with its --json line and a clean stop, and several pgw processes
// writing to the embedded database at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-e2e-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded sandbox on a fresh config directory', () => {
  it('pgw sandbox seed creates demo data, and payment get reads it back', async () => {
    const seeded = await spawnPgw(['sandbox', 'seed', '--json'], { env: { PGW_CONFIG_DIR: dir } });
    expect(seeded.code).toBe(0);
    const data = JSON.parse(seeded.stdout) as { payments: string[]; settlement_id: string; link_id: string };
    expect(data.payments.length).toBeGreaterThan(0);
    expect(data.settlement_id).toMatch(/^ST[0-9]{10}$/);
    expect(statSync(join(dir, 'sandbox.db')).mode & 0o777).toBe(0o600);

    const payment = await spawnPgw(['payment', 'get', data.payments[0]!, '--query', 'status'], { env: { PGW_CONFIG_DIR: dir } });
    expect(payment.code).toBe(0);
    expect(payment.stdout).toBe('captured\n');
  });

  it('the table form lists what was created, with a next step on stderr', async () => {
    const seeded = await spawnPgw(['sandbox', 'seed', '-o', 'table'], { env: { PGW_CONFIG_DIR: dir } });
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(/payment\s+│\s+PR[0-9]{10}/);
    expect(seeded.stdout).toMatch(/settlement\s+│\s+ST[0-9]{10}/);
    expect(seeded.stderr).toMatch(/next: pgw payment get PR[0-9]{10}/);
  });

  it('8 pgw processes seeding at once lose nothing and share no identifier', async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => spawnPgw(['sandbox', 'seed', '--payments', '25', '--json'], { env: { PGW_CONFIG_DIR: dir } })),
    );
    const ids = runs.flatMap((r) => {
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as string[];
    });
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    const check = await spawnPgw(['payment', 'get', '--from-file', '-'], { env: { PGW_CONFIG_DIR: dir } });
    expect(check.code).not.toBe(0); // no IDs on stdin: usage
    const sample = await spawnPgw(['payment', 'get', '-', '--query', 'length(@)'], { env: { PGW_CONFIG_DIR: dir }, input: ids.join('\n') });
    expect(sample.code, sample.stderr).toBe(0);
    expect(sample.stdout.trim()).toBe('200');
  });
});

describe('pgw sandbox serve', () => {
  it('prints one JSON line with the base URL and accounts, answers, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--db', join(dir, 'served.db')], {
      cwd: ROOT,
      env: { ...process.env, PGW_CONFIG_DIR: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
    });
    const info = JSON.parse(line) as { base_url: string; accounts: { name: string; client_id: string; client_secret: string; merchant_id: string; psp: boolean }[] };
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(info.accounts.filter((a) => a.psp)).toHaveLength(1);
    const merchant = info.accounts.find((a) => !a.psp)!;
    expect(Object.keys(merchant).sort()).toEqual(['client_id', 'client_secret', 'encryption_key', 'merchant_id', 'name', 'psp']);

    const res = await request(`${info.base_url}/pg/payments/PR0000000000/`, {
      headers: { 'x-client-id': merchant.client_id, 'x-client-secret': merchant.client_secret },
    });
    expect(res.statusCode).toBe(404);
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe('ERR_PAYMENT_005');

    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('sandbox stopped');
  });

  it('a busy port is one clear line and exit 2', async () => {
    const first = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--db', join(dir, 'a.db')], { cwd: ROOT });
    const baseUrl = await new Promise<string>((resolve) => first.stdout.once('data', (d: Buffer) => resolve((JSON.parse(d.toString().split('\n')[0]!) as { base_url: string }).base_url)));
    const port = new URL(baseUrl).port;
    const second = await spawnPgw(['sandbox', 'serve', '--port', port, '-o', 'table', '--db', join(dir, 'b.db')], { env: { PGW_CONFIG_DIR: dir } });
    first.kill('SIGTERM');
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split('\n')).toEqual([`error: port ${port} on 127.0.0.1 is in use: choose another with --port (0 for any free port)`]);
  });
});
