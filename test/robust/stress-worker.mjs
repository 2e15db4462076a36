// One of the processes of the multi-process stress test: runs `pgw order create --file <f> --json`
// `count` times through the built bundle's run() (one process, many runs: 400 process spawns would
// measure node's start-up, not the sandbox), against the embedded default profile of a shared
// config directory. Prints one JSON line: the orders it created and any failures.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

const [mainUrl, configDir, workDir, worker, countText, bodyJson] = process.argv.slice(2);
const { run } = await import(mainUrl);
const body = JSON.parse(bodyJson);

function capture() {
  const stream = new PassThrough();
  stream.text = '';
  stream.on('data', (chunk) => (stream.text += chunk.toString('utf8')));
  return stream;
}

const orders = [];
const failures = [];
for (let i = 0; i < Number(countText); i++) {
  const reference = `stress-w${worker}-${i}`;
  const file = join(workDir, `order-${worker}-${i}.json`);
  writeFileSync(file, JSON.stringify({ ...body, reference_id: reference }));
  const stdin = new PassThrough();
  stdin.end();
  const stdout = capture();
  const stderr = capture();
  const code = await run(['order', 'create', '--file', file, '--json'], { env: { PGW_CONFIG_DIR: configDir }, stdin, stdout, stderr });
  if (code === 0) orders.push({ reference, order_id: JSON.parse(stdout.text).order_id });
  else failures.push({ reference, code, stderr: stderr.text });
}
process.stdout.write(`${JSON.stringify({ worker, orders, failures })}\n`);
