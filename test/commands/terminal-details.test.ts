// The smaller terminal details of issue 15: errors for a person when only stdout is piped, a
// stdin that waits says so, profile add's refusals say what to do in a terminal, production
// over plain http is refused, hints do not send support staff to the spec.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { run } from '../../src/main.js';
import { runCli, tempConfigDir } from '../helpers/run.js';

class Capture extends PassThrough {
  text = '';
  constructor(readonly isTTY: boolean | undefined) {
    super();
    this.on('data', (c: Buffer) => (this.text += c.toString()));
  }
}

async function runSplit(argv: string[], tty: { stdout: boolean; stderr: boolean }, env: Record<string, string> = {}) {
  const config = tempConfigDir();
  const stdin = new PassThrough();
  stdin.end();
  const stdout = new Capture(tty.stdout || undefined);
  const stderr = new Capture(tty.stderr || undefined);
  try {
    const code = await run(argv, { env: { PGW_CONFIG_DIR: config.dir, ...env }, stdin, stdout, stderr });
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    config.cleanup();
  }
}

describe('errors when only stdout is piped', () => {
  it('a person on stderr gets one line, not the JSON object', async () => {
    const r = await runSplit(['payment', 'get', '../x'], { stdout: false, stderr: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).not.toContain('{"error"');
  });

  it('JSON asked for (--json) or nobody on stderr: the JSON object', async () => {
    const asked = await runSplit(['payment', 'get', '../x', '--json'], { stdout: false, stderr: true });
    expect(JSON.parse(asked.stderr).error.code).toBeDefined();
    const piped = await runSplit(['payment', 'get', '../x'], { stdout: false, stderr: false });
    expect(JSON.parse(piped.stderr).error.code).toBeDefined();
  });
});

describe('a terminal on stdin', () => {
  it('payment get - says it is reading IDs instead of waiting silently', async () => {
    const config = tempConfigDir();
    try {
      const r = await runCli(['payment', 'get', '-'], { tty: true, input: 'PR0000000000\n', env: { PGW_CONFIG_DIR: config.dir } });
      expect(r.stderr).toContain('reading IDs from the terminal, one per line; end with Ctrl-D');
      expect(r.code).toBe(5);
    } finally {
      config.cleanup();
    }
  });

  it('profile add --client-secret-stdin in a terminal says how, not "run in a terminal"', async () => {
    const config = tempConfigDir();
    try {
      const r = await runCli(['profile', 'add', 'x', '--client-secret-stdin'], { tty: true, env: { PGW_CONFIG_DIR: config.dir } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--client-secret-stdin needs the secret piped in; in a terminal leave it out to be asked');
      expect(r.stderr).not.toContain('run in a terminal');
    } finally {
      config.cleanup();
    }
  });
});

describe('profile add', () => {
  it('a production profile over plain http is refused (the secret would go in clear)', async () => {
    const config = tempConfigDir();
    try {
      const r = await runCli(['profile', 'add', 'prod', '--env', 'production', '--base-url', 'http://pg.example.com', '--client-id', 'c', '--client-secret-stdin'], {
        input: 'secret-123',
        env: { PGW_CONFIG_DIR: config.dir },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('a production profile needs an https:// address');
      const list = await runCli(['profile', 'list', '--json'], { env: { PGW_CONFIG_DIR: config.dir } });
      expect(list.stdout).not.toContain('"prod"');
    } finally {
      config.cleanup();
    }
  });
});

describe('hints', () => {
  it('not found: a hint support staff can act on, without a spec reference', async () => {
    const config = tempConfigDir();
    try {
      const r = await runCli(['payment', 'get', 'PR0000000000', '-o', 'table'], { env: { PGW_CONFIG_DIR: config.dir } });
      expect(r.code).toBe(5);
      expect(r.stderr).toContain('hint: check the ID');
      expect(r.stderr).not.toMatch(/spec (part|\d)/);
    } finally {
      config.cleanup();
    }
  });
});
