// The leak scan's markers, the gateway it runs against and the scanners.
//
// The gateway is a small proxy on 127.0.0.1 in front of a real sandbox server (whose database is
// the gateway's, not pgw's, and lives outside the scanned directories). In `forward` mode it swaps
// the marker secret for the sandbox's own credentials, so every command succeeds with the marker;
// in the echo modes it answers an error that quotes the whole request back (headers, body, raw
// text), as a careless gateway or proxy would.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { request } from 'undici';
import { startServer, type RunningSandbox } from '../../src/sandbox/serve.js';
import { openRaw } from '../helpers/sqlite.js';

/** The client secret given to pgw (profile, stdin, prompt or PGW_CLIENT_SECRET). */
export const SECRET = 'sk_leakmarker_7f3a9c2e1d';
/**
 * The webhook Encryption Key (vendor 1.2), a secret like the client secret: given to pgw (profile,
 * stdin, PGW_ENCRYPTION_KEY) and made the gateway's own key for the leak accounts, so it also
 * arrives from the gateway (a webhook registration, GET /sandbox/encryption-key/, events signed with it).
 */
export const ENCRYPTION_KEY = 'whk_q8z3m1x6v4n7p2r5';
/** A 16-digit card number that cannot occur by chance, and its PCI mask. */
export const CARD = '4000001234567899';
export const CARD_MASKED = '400000******7899';
/** Three digits can occur by chance: it is hunted next to a cvv/cvc key, or as a lone token. */
export const CVV = '739';
/** The card as people and gateways write it back: in groups of four, with spaces and with dashes. */
export const CARD_GROUPED = CARD.replace(/(\d{4})(?=\d)/g, '$1 ');
export const CARD_DASHED = CARD.replace(/(\d{4})(?=\d)/g, '$1-');
/** What a hostile gateway puts in its text for a terminal: a window title, a screen clear, a bell. */
export const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u0007';
/** Anything but newline, tab and SGR colour: what may never reach a terminal (contract, "Output rules"). */
export const TERMINAL_CONTROL = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;

export const MERCHANT_ID = 'leak-merchant';
export const PSP_ID = 'leak-psp';

/**
 * forward: to the sandbox, marker secret swapped for its credentials; echo-json / echo-text: an
 * error quoting the request (headers, body, raw text) as JSON or as an HTML page; echo-ok: a
 * success whose data quotes the request back, as a careless gateway might.
 */
export type GatewayMode = 'forward' | 'echo-json' | 'echo-text' | 'echo-ok';

export interface SeenRequest {
  method: string;
  path: string;
  mode: GatewayMode;
}

export class LeakGateway {
  mode: GatewayMode = 'forward';
  /** Status of the echo modes. */
  status = 400;
  /**
   * Whether the echoes quote the Encryption Key in free text too (else only under its own name,
   * `encryption_key`): off for a run where pgw was never given the key, which it then cannot know.
   */
  keyInText = true;
  readonly seen: SeenRequest[] = [];

  private constructor(
    readonly sandbox: RunningSandbox,
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(dbPath: string): Promise<LeakGateway> {
    const sandbox = await startServer({ port: 0, host: '127.0.0.1', dbPath });
    // The accounts' Encryption Key becomes the marker: the gateway signs and hands out the marker.
    // Its own store holds it, as it holds its own client secrets; pgw's files and output never may.
    const db = openRaw(dbPath);
    try {
      db.prepare('UPDATE merchants SET encryption_key = ? WHERE encryption_key IS NOT NULL').run(ENCRYPTION_KEY);
    } finally {
      db.close();
    }
    gatewayStores.add(resolve(dirname(dbPath)));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const gw = new LeakGateway(sandbox, server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        gw.seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', mode: gw.mode });
        gw.answer(req.method ?? 'GET', req.url ?? '/', req.headers, raw).then(
          ({ status, headers, body }) => {
            res.writeHead(status, headers);
            res.end(body);
          },
          (err: Error) => {
            res.writeHead(502, { 'content-type': 'text/plain' });
            res.end(`proxy failure: ${err.message}`);
          },
        );
      });
    });
    return gw;
  }

  private async answer(method: string, path: string, headers: IncomingHttpHeaders, raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
    // A careless gateway also quotes the account's Encryption Key (as text and under its own name).
    const quoted = `Card ${CARD_GROUPED} (${CARD_DASHED}) declined${this.keyInText ? `, signed with ${ENCRYPTION_KEY}` : ''}${ESCAPES}`;
    if (this.mode === 'echo-text') {
      const page = `<html><body><h1>${this.status} upstream error${ESCAPES}</h1><p>${quoted}</p><pre>${method} ${path}\n${Object.entries(flat).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${raw}</pre></body></html>`;
      return { status: this.status, headers: { 'content-type': 'text/html' }, body: page };
    }
    if (this.mode === 'echo-ok') {
      // A success quoting everything back: the secret as a value, the card in groups, escape
      // sequences, and a 3-D Secure page (HTML) holding the card and `value="<cvv>"`.
      const html = `<html><body><form><p>${quoted}</p><input name="pan" value="${CARD_GROUPED}"><input name="cvv" value="${CVV}"><input name="k" value="${flat['x-client-secret'] ?? ''}"></form></body></html>`;
      const acs = path.startsWith('/pg/orders/') && method === 'POST' && /card_details/.test(raw) ? { acs_template: Buffer.from(html).toString('base64') } : {};
      const data = { order_id: 'OD0000000001', session_id: 'sess_echo', payment_id: 'PR0000000001', uid: 'sub-echo', link_id: 'PR0000000002', settlement_id: 'ST0000000001', id: '1000000001', status: `captured${ESCAPES}`, secret: flat['x-client-secret'] ?? null, encryption_key: ENCRYPTION_KEY, message: quoted, echo: parse(raw), note: `received ${raw}`, ...acs };
      return { status: 200, headers: { 'content-type': 'application/json', 'x-echo-secret': flat['x-client-secret'] ?? '' }, body: JSON.stringify({ success: true, message: 'ok', data }) };
    }
    if (this.mode === 'echo-json') {
      const parsed = parse(raw);
      const error = {
        code: 'ERR_ECHO_001',
        message: `rejected ${method} ${path} sent with X-Client-Secret ${flat['x-client-secret'] ?? '-'}: ${quoted}: ${raw}`,
        details: { headers: flat, body: parsed, raw, secret: flat['x-client-secret'] ?? null, encryption_key: ENCRYPTION_KEY, card: quoted },
      };
      return { status: this.status, headers: { 'content-type': 'application/json', 'x-echo-secret': flat['x-client-secret'] ?? '' }, body: JSON.stringify({ success: false, error }) };
    }
    return this.forward(method, path, flat, raw);
  }

  /** The marker secret becomes the sandbox's own credentials of the account its client id names. */
  private async forward(method: string, path: string, headers: Record<string, string>, raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const out: Record<string, string> = { ...headers };
    delete out.host;
    delete out.connection;
    if (out['x-client-secret'] === SECRET) {
      const account = this.sandbox.accounts.find((a) => a.psp === (out['x-client-id'] === PSP_ID))!;
      out['x-client-id'] = account.client_id;
      out['x-client-secret'] = account.client_secret;
    }
    const res = await request(`${this.sandbox.baseUrl}${path}`, { method: method as 'GET', headers: out, body: raw === '' ? undefined : raw });
    const body = await res.body.text();
    const type = res.headers['content-type'];
    const answerHeaders: Record<string, string> = type ? { 'content-type': String(type) } : {};
    return { status: res.statusCode, headers: answerHeaders, body };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.sandbox.close();
  }
}

function parse(raw: string): unknown {
  try {
    return raw === '' ? null : (JSON.parse(raw) as unknown);
  } catch {
    return raw;
  }
}

// ---- scanning --------------------------------------------------------------------------------

export interface Leak {
  where: string;
  marker: 'secret' | 'key' | 'card' | 'cvv';
  excerpt: string;
}

const CVV_KEYED = new RegExp(`(?:cvv|cvc)2?[^0-9a-z]{0,12}${CVV}(?![0-9])`, 'i');
/** The CVV as a token of its own: not inside a number, an ID, a token or base64 (whose characters these are). */
const CVV_TOKEN = new RegExp(`(?<![0-9A-Za-z_+/=.-])${CVV}(?![0-9A-Za-z_+/=.-])`);
/** Request timings of --verbose ("(739 ms)", "in 739 ms") are the one place a lone 3-digit number is expected. */
const TIMINGS = /\(\d+ ms\)|\bin \d+ ms\b/g;

function excerpt(text: string, index: number): string {
  return JSON.stringify(text.slice(Math.max(0, index - 60), index + 60));
}

const SECRET_FRAGMENTS = Array.from({ length: SECRET.length - 7 }, (_, i) => SECRET.slice(i, i + 8));
const KEY_FRAGMENTS = Array.from({ length: ENCRYPTION_KEY.length - 7 }, (_, i) => ENCRYPTION_KEY.slice(i, i + 8));

/** Markers in printed text: the secret or the Encryption Key (or 8 characters of either), the card number (also with separators), the CVV keyed or alone. */
export function leaksInText(where: string, text: string, opts: { cvvToken?: boolean } = {}): Leak[] {
  const leaks: Leak[] = [];
  const at = (marker: Leak['marker'], i: number, source = text) => leaks.push({ where, marker, excerpt: excerpt(source, i) });
  // Any 8 characters of the secret: an error that quotes an excerpt (V8's JSON.parse messages do)
  // leaks part of it. The masked display (•••• and the last 4) stays below that.
  const fragment = SECRET_FRAGMENTS.find((f) => text.includes(f));
  if (fragment !== undefined) at('secret', text.indexOf(fragment));
  const keyFragment = KEY_FRAGMENTS.find((f) => text.includes(f));
  if (keyFragment !== undefined) at('key', text.indexOf(keyFragment));
  if (text.includes(CARD)) at('card', text.indexOf(CARD));
  // Digits of any script as ASCII (NFKC: full-width, mathematical), and the gaps people put between groups gone (issue 44 item 9).
  const joined = text.normalize('NFKC').replace(/[\s\p{Pd}\u2212._/\u00ad\u200b-\u200d\u2060\ufeff]/gu, '');
  if (!text.includes(CARD) && joined.includes(CARD)) at('card', joined.indexOf(CARD), joined);
  const keyed = CVV_KEYED.exec(text);
  if (keyed) at('cvv', keyed.index);
  if (opts.cvvToken !== false) {
    const plain = text.replace(TIMINGS, '');
    const token = CVV_TOKEN.exec(plain);
    if (token) at('cvv', token.index, plain);
  }
  return leaks;
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The one place the secret may be written: the profile file's own client_secret fields. */
const PROFILE_SECRET = new RegExp(`"client_secret"\\s*:\\s*"${SECRET}"`, 'g');
/** Likewise the Encryption Key: the profile file's own encryption_key fields. */
const PROFILE_KEY = new RegExp(`"encryption_key"\\s*:\\s*"${ENCRYPTION_KEY}"`, 'g');
/** Directories of the gateway's own store (the sandbox behind the proxy): its key is its own there. */
const gatewayStores = new Set<string>();
const inGatewayStore = (path: string) => [...gatewayStores].some((d) => resolve(path).startsWith(`${d}/`));

const isSqlite = (path: string, bytes: Buffer) => bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000' || /\.db(-wal|-shm|-journal)?$/.test(path);

/**
 * Markers in one file. Bytes are read as latin1, so text inside SQLite pages and WAL frames is
 * found too; a SQLite database is also opened and every cell checked (a CVV stored in a column
 * of its own would not sit next to its name in the file).
 */
export function leaksInFile(path: string): Leak[] {
  const bytes = readFileSync(path);
  let text = bytes.toString('latin1');
  if (/(^|\/)config\.json$/.test(path)) text = text.replace(PROFILE_SECRET, '"client_secret": "<allowed>"').replace(PROFILE_KEY, '"encryption_key": "<allowed>"');
  // An HTML page (the 3-D Secure page pgw writes) is hunted for the CVV standing alone too: value="739".
  const leaks = leaksInText(path, text, { cvvToken: /\.html?$/.test(path) });
  if (isSqlite(path, bytes) && path.endsWith('.db')) leaks.push(...leaksInDatabase(path));
  return inGatewayStore(path) ? leaks.filter((l) => l.marker !== 'key') : leaks;
}

function leaksInDatabase(path: string): Leak[] {
  const leaks: Leak[] = [];
  const db = openRaw(path);
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) {
          const where = `${path} ${name}.${column}`;
          const cell = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value;
          if (typeof cell === 'string') {
            leaks.push(...leaksInText(where, cell, { cvvToken: false }));
            if (cell.trim() === CVV) leaks.push({ where, marker: 'cvv', excerpt: cell });
          } else if (/cv[vc]/i.test(column) && String(cell) === CVV) {
            leaks.push({ where, marker: 'cvv', excerpt: String(cell) });
          }
        }
      }
    }
  } finally {
    db.close();
  }
  return leaks;
}

/** Markers in every file under the given directories; returns the leaks and how many files were read. */
export function scanDirs(dirs: string[]): { leaks: Leak[]; files: string[] } {
  const files = dirs.flatMap((d) => filesUnder(d));
  return { leaks: files.flatMap((f) => leaksInFile(f)), files };
}

// ---- the ID corpus -----------------------------------------------------------------------------

/** The check digit that makes `body` pass the Luhn check. */
function luhnComplete(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const digits = `${body}${d}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let n = digits.charCodeAt(digits.length - 1 - i) - 48;
      if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
      sum += n;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

/**
 * The gateway's identifiers whose digits pass the Luhn check (about 1 in 10 real ones does): OD, PR,
 * ST, RF and CB with 10 to 19 digits (OD + 14 is the order shape), and UUIDs, lower and upper case,
 * one made of digits only. None of them may ever be masked as a card number.
 */
export function luhnValidIds(): string[] {
  const ids: string[] = [];
  let seed = 4000056655;
  for (const prefix of ['OD', 'PR', 'ST', 'RF', 'CB']) {
    for (let length = 10; length <= 19; length++) {
      seed = (seed * 48271) % 2147483647;
      const body = `4${String(seed).padStart(10, '0')}${'0566556655'}`.slice(0, length - 1);
      ids.push(`${prefix}${luhnComplete(body)}`);
    }
  }
  ids.push('OD31190213516414', 'OD44052772549076'); // the two of the issue
  const digitsOnly = `${luhnComplete('4000056')}-5566-5556-4000-${luhnComplete('40000566556')}`;
  ids.push('550e8400-e29b-41d4-a716-446655440000', '550E8400-E29B-41D4-A716-446655440000', digitsOnly);
  return ids;
}
