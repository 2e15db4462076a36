// Issue 32, "the docs are tests": every fenced block of README.md and docs/*.md runs here as a
// reader would run it (test/docs/run.ts), or carries a marker saying why not (test/docs/blocks.ts).
// A block that shows output is compared with what pgw prints, IDs and times ignored by pattern.
// Each block gets a fresh PGW_CONFIG_DIR: every example is written to work on its own.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';
import { allBlocks, DOC_FILES, SHELL, type Block } from './blocks.js';
import { canIsolate, removeWrapper, runScript, transform } from './run.js';

interface Fixture {
  /** Shell run before the block (a shell block) or instead of it (any other block: the block's text is in ./block.txt). */
  before?: string;
  after?: string;
  /** Placeholders of the example (an ID it shows) and the variable the set-up filled. */
  replace?: [string, string][];
  /** The block shows output: the script's stdout must read the same, once normalised. */
  compare?: boolean;
}

// IDs, times, durations and keys differ on every run; the shape around them must not.
export function normalise(text: string): string {
  return text
    .replace(/\b\d{2}:\d{2}:\d{2}\b/g, '<time>')
    .replace(/\b(OD|PR|RF|CB|ST|EV|WH|FT)\d{1,14}\b/g, '<$1>')
    .replace(/\b\d+ms\b/g, '<ms>')
    .replace(/\b[0-9a-f]{64}\b|\b[0-9a-f]{4}…\(64 hex\)/g, '<hex64>')
    .replace(/\b\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<iso>')
    .replace(/\b\d{10}\b/g, '<unix>')
    .replace(/"sequence_number":"[^"]*"/g, '"sequence_number":<uuid>')
    .replace(/\s+$/gm, '')
    .trim();
}

const FIXTURES: Record<string, Fixture> = {
  // README's first screen (issue 44 item 1), from a checkout: the suite runs in a checkout where
  // `npm install` has run (.ci/run: on a fresh clone), so here it is that install, taken as done;
  // `npx pgw` is the checkout's pgw, as npx finds it from the project's own bin.
  'from-a-checkout': {
    before: String.raw`
npm() { if [ "$*" = install ]; then return 0; fi; command npm "$@"; }
npx() { if [ "$1" = pgw ]; then shift; pgw "$@"; else command npx "$@"; fi; }`,
  },
  // README's "Then try": after the seed, on one of its payments.
  'try-next': {
    before: String.raw`
npx() { if [ "$1" = pgw ]; then shift; pgw "$@"; else command npx "$@"; fi; }
PAYMENT=$(pgw sandbox seed --json | jq -r '.payments[0]')`,
    replace: [['PR1234567890', '"$PAYMENT"']],
  },
  // docs/sandbox.md "Running it": the payment it reads back is one the seed made.
  'running-it': {
    before: `PAYMENT=$(pgw sandbox seed --json | jq -r '.payments[0]')`,
    replace: [['PR1234567890', '"$PAYMENT"']],
  },
  // docs/sandbox.md: the request log `sandbox serve` writes on stderr, for the same three requests.
  'request-log': {
    compare: true,
    before: String.raw`
pgw sandbox serve --port 0 --json >serve.json 2>serve.log &
until [ -s serve.json ]; do sleep 0.1; done
BASE=$(jq -r .base_url serve.json)
ID=$(jq -r '.accounts[] | select(.psp | not) | .client_id' serve.json)
SECRET=$(jq -r '.accounts[] | select(.psp | not) | .client_secret' serve.json)
as_merchant() { curl -s -H "X-Client-ID: $ID" -H "X-Client-Secret: $SECRET" -H 'X-API-Version: 3.0.0' -H 'Content-Type: application/json' "$@"; }
seed=$(as_merchant "$BASE/sandbox/seed/" -d '{}')
as_merchant -o /dev/null "$BASE/pg/payments/$(jq -r '.data.payments[0]' <<<"$seed")/"
as_merchant -o /dev/null "$BASE/sandbox/orders/$(jq -r '.data.orders[0]' <<<"$seed")/pay/" -d '{"outcome":"success","mop_type":"upi"}'
curl -s -o /dev/null "$BASE/pg/payments/PR1/"
until [ "$(wc -l <serve.log)" -ge 4 ]; do sleep 0.1; done
grep -v -e '/sandbox/seed/' serve.log`,
  },
  // README.md "Webhooks while you build" and "The sandbox in CI": the app under test, a receiver on
  // :3000 that answers 200 (its own signature check is the webhook-receiver block's).
  'app-receiver': {
    before: String.raw`
cat >app.cjs <<'JS'
require('node:http').createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end())).listen(3000);
JS
node app.cjs &
__wait_port 3000`,
  },
  // README "Webhooks while you build": the receiver runs as a program that `pgw listen` forwards
  // the sandbox's events to; it must accept a signed event and refuse a forged one.
  'webhook-receiver': {
    before: String.raw`
cp block.txt receiver.js
ENCRYPTION_KEY=$(pgw listen --print-key) node receiver.js >receiver.log 2>&1 &
__wait_port 3000
__background pgw listen --forward-to http://localhost:3000/webhooks
pgw trigger PAYMENT_SUCCESSFUL >/dev/null
for _ in $(seq 1 50); do grep -q 'paid OD' receiver.log && break; sleep 0.1; done
grep 'paid OD' receiver.log
forged=$(curl -s -o /dev/null -w '%{http_code}' -H 'X-Webhook-Signature: 00' -d '{"event_type":"PAYMENT_SUCCESSFUL","data":{}}' http://localhost:3000/webhooks)
[ "$forged" = 401 ] || { echo "a forged event answered $forged" >&2; exit 1; }`,
  },
  // docs/sandbox.md "What a delivery looks like": a real delivery, as a receiver sees it; the
  // request's transport headers (Host, Content-Length, Connection) are left out as the doc does.
  'webhook-delivery': {
    compare: true,
    before: String.raw`
cat >receiver.cjs <<'JS'
require('node:http').createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d)).on('end', () => {
    const skip = new Set(['host', 'content-length', 'connection', 'accept', 'accept-encoding', 'accept-language', 'sec-fetch-mode']);
    const headers = [];
    // Header names are case-insensitive (the sender writes them in lower case): shown as the doc does.
    const name = (n) => n.toLowerCase().replace(/(^|-)([a-z])/g, (m) => m.toUpperCase());
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (!skip.has(req.rawHeaders[i].toLowerCase())) headers.push(name(req.rawHeaders[i]) + ': ' + req.rawHeaders[i + 1]);
    const envelope = JSON.parse(body);
    // The doc elides the event's data; the envelope's keys, their order and the rest must match.
    const shown = body.replace(JSON.stringify(envelope.data), '{…}');
    console.log([req.method + ' ' + req.url + ' HTTP/' + req.httpVersion, ...headers, '', shown].join('\n'));
    res.end();
    process.exit(0);
  });
}).listen(3000, '127.0.0.1');
JS
node receiver.cjs &
receiver=$!
__wait_port 3000
echo '{"url":"http://127.0.0.1:3000/your/hook"}' | pgw api POST /sandbox/webhooks/ -d - >/dev/null
pgw trigger PAYMENT_SUCCESSFUL >/dev/null
wait "$receiver"`,
  },
  // docs/sandbox.md "Snapshots": the team database of "Running it" (`serve --db ./team.db`) exists.
  'team-db': {
    before: `__server pgw sandbox serve --db ./team.db`,
  },
  // README "Debugging a handler": an event whose delivery failed (its address refuses connections).
  'debug-handler': {
    before: String.raw`
echo '{"url":"http://127.0.0.1:9/hook"}' | pgw api POST /sandbox/webhooks/ -d - >/dev/null
pgw trigger PAYMENT_SUCCESSFUL >/dev/null
EVENT=$(pgw events list --json | jq -r '.[0].id')
KEY=$(pgw listen --print-key)
SIGN='process.stdout.write(require("node:crypto").createHmac("sha256", process.argv[1]).update(require("node:fs").readFileSync("body.json")).digest("hex"))'`,
    replace: [
      ['EV12345678901234', '"$EVENT"'],
      // What the handler logged: the HMAC of the body with the account's key, made here.
      ['<X-Webhook-Signature>', '"$(node -e "$SIGN" "$KEY")"'],
    ],
  },
};

function scriptFor(block: Block): string {
  const fixture = block.marker.kind === 'fixture' ? FIXTURES[block.marker.name] : undefined;
  if (block.marker.kind === 'fixture' && !fixture) throw new Error(`no fixture "${block.marker.name}" in test/docs/docs.test.ts`);
  let text = block.text;
  for (const [from, to] of fixture?.replace ?? []) {
    expect(text, `the placeholder ${from} is in the block`).toContain(from);
    text = text.split(from).join(to);
  }
  if (!SHELL.has(block.lang)) return `${fixture?.before ?? ''}\n${fixture?.after ?? ''}`;
  return `${fixture?.before ?? ''}\n${transform(text)}\n${fixture?.after ?? ''}`;
}

const blocks = allBlocks(ROOT);
const where = (b: Block) => `${b.file}:${b.line} (${b.heading})`;
const runnable = blocks.filter((b) => b.marker.kind === 'run' || b.marker.kind === 'fixture');
const skipped = blocks.filter((b) => b.marker.kind === 'skip');
const covered = blocks.filter((b) => b.marker.kind === 'covered-by');

describe('docs: every block runs or says why not', () => {
  it('every block has a way to run', () => {
    const summary = [
      `docs blocks (node ${process.version}): ${blocks.length}; run here ${runnable.length}, by another test ${covered.length}, marked skip ${skipped.length}`,
      ...(canIsolate ? [] : [`  NOT RUN: ${runnable.filter(needsIsolation).length} blocks need a network namespace (unshare -rn, ip) and this machine allows none`]),
      ...covered.map((b) => `  covered ${where(b)}: ${b.marker.kind === 'covered-by' ? b.marker.file : ''}`),
      ...skipped.map((b) => `  skip    ${where(b)}: ${b.marker.kind === 'skip' ? b.marker.reason : ''}`),
    ];
    console.log(summary.join('\n'));
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of blocks) {
      expect(b.marker.kind, `${where(b)}: ${b.marker.kind === 'invalid' ? b.marker.text : ''}`).not.toBe('invalid');
      // Only shell runs as written; any other block needs a fixture to say how it runs.
      if (b.marker.kind === 'run') expect(SHELL.has(b.lang), `${where(b)}: a \`${b.lang}\` block needs a docs-test marker`).toBe(true);
    }
  });

  it('a block run by another test is read by that test, under its heading', () => {
    for (const b of covered) {
      if (b.marker.kind !== 'covered-by') continue;
      const test = join(ROOT, b.marker.file);
      expect(existsSync(test), `${where(b)}: ${b.marker.file}`).toBe(true);
      expect(readFileSync(test, 'utf8'), `${b.marker.file} must find the block by its heading "${b.heading}"`).toContain(b.heading);
    }
  });

  // Issue 32 item 6: readers do not know our issue numbers; a heading names its subject.
  it('no heading is named by an issue number', () => {
    const headings = DOC_FILES(ROOT).flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l) && /\bissues? \d/.test(l))
        .map((l) => `${f}: ${l}`),
    );
    expect(headings).toEqual([]);
  });

  it('the fixtures are all used', () => {
    const used = new Set(blocks.flatMap((b) => (b.marker.kind === 'fixture' ? [b.marker.name] : [])));
    expect(Object.keys(FIXTURES).filter((name) => !used.has(name))).toEqual([]);
  });
});

// A block that listens on a fixed port (serve's 4010, a receiver's 3000) runs only in a network
// namespace of its own: tests never take the machine's ports.
const needsIsolation = (b: Block) => /\b4010\b|pgw sandbox serve|pgw listen|localhost:3000/.test(b.text) || b.marker.kind === 'fixture';

describe.concurrent('docs: the blocks, run', () => {
  afterAll(removeWrapper);
  for (const block of runnable) {
    it.skipIf(needsIsolation(block) && !canIsolate)(where(block), async () => {
      const text = block.text;
      const r = await runScript(scriptFor(block), { 'block.txt': text });
      expect(r.code, `${where(block)} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
      const fixture = block.marker.kind === 'fixture' ? FIXTURES[block.marker.name] : undefined;
      if (fixture?.compare) expect(normalise(r.stdout)).toBe(normalise(text));
      // Kept when the block failed, for a look at what it left.
      rmSync(r.dir, { recursive: true, force: true });
    }, 90_000);
  }
});
