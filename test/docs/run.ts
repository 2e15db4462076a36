// Runs one documentation block as a reader would: bash, the built checkout's pgw on PATH, a fresh
// PGW_CONFIG_DIR and working directory of its own, and (where user namespaces are allowed) a
// private network namespace, so that `pgw sandbox serve` on its default port 4010 and receivers on
// :3000 are the block's own: tests never take the machine's 4010 (test/e2e/order-flags.test.ts),
// and blocks run side by side without meeting.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/spawn.js';

// Loopback must come up inside the namespace too (it starts down; `ip` brings it up).
export const canIsolate = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;

// What a reader runs in a terminal of its own, the harness runs beside the block:
// - `pgw sandbox serve …` (no `&`): started, seen listening, stopped with SIGTERM; it must exit 0;
// - `pgw listen …` (no `&`, not --print-key): started, and left running until the block ends,
//   as the README's "in one terminal … in another" means.
// Anything left running (a line ending in `&` included) is killed with the block's process group.
const PRELUDE = String.raw`
set -eo pipefail
__log() { mktemp -p "$PGW_DOCS_TMP" "$1.XXXXXX"; }
__server() {
  local log pid; log=$(__log server)
  "$@" >"$log" 2>&1 & pid=$!
  for _ in $(seq 1 150); do grep -q 'http://' "$log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if ! grep -q 'http://' "$log"; then echo "never listened: $*" >&2; cat "$log" >&2; return 1; fi
  kill -TERM "$pid"; wait "$pid"
}
__background() {
  local log pid; log=$(__log background)
  "$@" >"$log" 2>&1 & pid=$!
  for _ in $(seq 1 150); do [ -s "$log" ] && break; kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; return 1; }; sleep 0.1; done
  sleep 0.3
}
__wait_port() { for _ in $(seq 1 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "nothing on port $1" >&2; return 1; }
`;

export function transform(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const background = /&\s*(#.*)?$/.test(line);
      if (/^pgw sandbox serve\b/.test(line) && !background) return `__server ${line}`;
      if (/^pgw listen\b/.test(line) && !background && !/--print-key/.test(line)) return `__background ${line}`;
      return line;
    })
    .join('\n');
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

let wrapperDir: string | undefined;
export function removeWrapper(): void {
  if (wrapperDir) rmSync(wrapperDir, { recursive: true, force: true });
}
/** A directory holding `pgw`: this checkout's bin/pgw.js on the Node running the tests. */
function pgwOnPath(): string {
  if (wrapperDir) return wrapperDir;
  wrapperDir = mkdtempSync(join(tmpdir(), 'pgw-docs-bin-'));
  writeFileSync(join(wrapperDir, 'pgw'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(wrapperDir, 'pgw'), 0o755);
  return wrapperDir;
}

/** Runs `script` (bash) with the prelude in a fresh directory; `files` are written there first. */
export function runScript(script: string, files: Record<string, string> = {}, timeoutMs = 80_000): Promise<RunResult & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-docs-'));
  const config = join(dir, 'config');
  mkdirSync(config);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, 'block.sh'), `${PRELUDE}\n${script}\n`);
  // Never the developer's own profile, credentials or output format.
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_')) && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, { PATH: `${pgwOnPath()}:${process.env.PATH}`, PGW_CONFIG_DIR: config, PGW_DOCS_TMP: dir });
  const inner = `ip link set lo up && exec bash ./block.sh`;
  const [cmd, args] = canIsolate ? ['unshare', ['-rn', 'bash', '-c', inner]] : ['bash', ['./block.sh']];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args as string[], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stderr += `\n(docs test: killed after ${timeoutMs} ms)`;
      killGroup();
    }, timeoutMs);
    child.on('error', reject);
    // 'exit', not 'close': a server the block left in the background holds the pipes open.
    child.on('exit', (code) => {
      clearTimeout(timer);
      killGroup();
      setTimeout(() => resolve({ code, stdout, stderr, ms: Date.now() - started, dir }), 50);
    });
  });
}
