// `pgw sandbox serve --json --quiet` as a real background process of the built binary, on a config
// dir's database: resolves with its base URL once it listens. Killed at the latest by killServes().
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN, ROOT } from './spawn.js';

const children: ChildProcessWithoutNullStreams[] = [];

export interface ServeProcess {
  baseUrl: string;
  accounts: { client_id: string; client_secret: string; merchant_id: string; psp: boolean }[];
  child: ChildProcessWithoutNullStreams;
  /** SIGTERM, then the process's end (a clean stop: its cleanups run). */
  stop(): Promise<void>;
}

export async function startServe(configDir: string, port: string, extra: string[] = []): Promise<ServeProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PGW_')));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', port, '--json', '--quiet', ...extra], {
    cwd: ROOT,
    env: { ...clean, NO_COLOR: '1', PGW_CONFIG_DIR: configDir },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  for (let i = 0; !out.includes('\n'); i++) {
    if (child.exitCode !== null || i > 1500) throw new Error(`serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const line = JSON.parse(out) as { base_url: string; accounts: ServeProcess['accounts'] };
  return {
    baseUrl: line.base_url,
    accounts: line.accounts,
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** For afterAll: whatever is still running is killed. */
export function killServes(): void {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}
