// What `order create` shows for each way of collecting (spec 2.6): the envelope's data unchanged in
// JSON; on a terminal the order_id with the checkout address, the UPI intent as a QR code (with
// its expiry and, from a sandbox, its simulator page: vendor N7), the collection message, or where
// the 3-D Secure page went. The data is printed before any file is
// written, so the order_id is never lost to a failed write.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { PgwError } from '../../errors.js';
import { fileProblem, writePrivateFile } from '../../files/private-file.js';
import { emit, renderDetail, wantsJson } from '../../output/render.js';
import type { CardValues } from '../../safety/card-values.js';
import type { TextGuard } from '../../output/io.js';
import type { Opener } from './open.js';
import type { PagesAddress } from '../pages-hint.js';
import { plainText } from '../../safety/terminal-text.js';

export interface CreatedOrder {
  order_id: string;
  session_id?: string;
  intent_uri?: string;
  /** vendor N7: S2S UPI intent, UTC date-time, creation + 5 minutes. */
  expires_at?: string;
  /** vendor N7: S2S UPI intent in a sandbox, a page that completes it without a UPI app. */
  test_simulator_url?: string;
  message?: string;
  acs_template?: string;
  [extra: string]: unknown;
}

export interface ShowOptions {
  /** Where the buyer pages live; undefined when not known (a real gateway's checkout is not in the API). */
  pagesBase?: string;
  /** The embedded sandbox: where its pages are addressed, and whether a serve of its database runs there. */
  embeddedPages?: PagesAddress;
  acsOut?: string;
  open: boolean;
  opener: Opener;
  secrets: CardValues;
  /** A sandbox profile: the next step can be `pgw sandbox pay`. */
  sandbox?: boolean;
}

export function checkoutUrl(data: CreatedOrder, pagesBase: string | undefined): string | undefined {
  return data.session_id && pagesBase ? `${pagesBase}/checkout/${encodeURIComponent(data.session_id)}/` : undefined;
}

/**
 * The decoded acs_template. A card number in it (in any grouping), the CVV of the card we sent
 * (`value="987"`) and the client secret (there should be none of them) are masked before writing:
 * the run's output guard knows them all.
 */
export function acsHtml(template: string, guard: TextGuard): { html: string; masked: boolean } {
  const html = Buffer.from(template, 'base64').toString('utf8');
  const clean = guard.text(html);
  return { html: clean, masked: clean !== html };
}

function cardRow(data: CreatedOrder, opts: ShowOptions): string {
  if (opts.acsOut) return `written to ${opts.acsOut}`;
  if (opts.open) return 'opening in the browser';
  return 'kept: see below';
}

/**
 * Gateway text on one row of the view: control characters (escape sequences included) dropped,
 * and newlines and tabs made spaces so a value cannot start a row of its own (terminal-safe on a
 * pipe too, where io.out passes bytes through).
 */
function oneLine(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? plainText(String(value)).replace(/[\n\t]/g, ' ') : undefined;
}

/** The simulator page, when the gateway sent one a browser can open (http or https only): the next step points there. */
function simulatorUrl(data: CreatedOrder): string | undefined {
  const url = oneLine(data.test_simulator_url);
  return url && /^https?:\/\/[^\s]+$/i.test(url) ? url : undefined;
}

function humanText(data: CreatedOrder, opts: ShowOptions): string {
  const rows: [string, string | undefined][] = [['order_id', oneLine(data.order_id)]];
  if (data.session_id !== undefined) rows.push(['session_id', oneLine(data.session_id)], ['checkout', checkoutUrl(data, opts.pagesBase)]);
  if (data.intent_uri !== undefined) rows.push(['intent_uri', oneLine(data.intent_uri)]);
  if (data.expires_at !== undefined) rows.push(['expires_at', oneLine(data.expires_at)]);
  if (data.test_simulator_url !== undefined) rows.push(['simulator', oneLine(data.test_simulator_url)]);
  if (data.message !== undefined) rows.push(['message', oneLine(data.message)]);
  if (data.acs_template !== undefined) rows.push(['3-D Secure', cardRow(data, opts)]);
  const known = new Set(['order_id', 'session_id', 'intent_uri', 'expires_at', 'test_simulator_url', 'message', 'acs_template']);
  for (const [key, value] of Object.entries(data)) {
    if (!known.has(key) && (typeof value === 'string' || typeof value === 'number')) rows.push([oneLine(key)!, oneLine(value)]);
  }
  return renderDetail([{ rows: rows.filter(([, v]) => v !== undefined) }]);
}

export async function showCreated(ctx: Context, data: CreatedOrder, opts: ShowOptions): Promise<void> {
  const { io } = ctx;
  const human = !wantsJson(ctx.output);
  // The checkout address is pgw's addition to the data (contract: "the checkout address when known").
  const checkout = checkoutUrl(data, opts.pagesBase);
  await emit(io, ctx.output, checkout ? { ...data, checkout_url: checkout } : data, () => io.out(humanText(data, opts)));
  if (human && data.intent_uri && io.stdoutIsTTY) {
    const { qrTerminal } = await import('../../output/qr.js');
    io.out(`\n${await qrTerminal(data.intent_uri, io.colorOut)}`);
    io.err('scan the code with a UPI app to pay\n');
  }
  if (data.acs_template !== undefined) await handleAcs(ctx, data, opts, human);
  else if (opts.open) await openPage(ctx, checkout, opts, 'checkout page');
  const pages = data.session_id !== undefined || data.acs_template !== undefined || data.test_simulator_url !== undefined;
  if (opts.embeddedPages && pages) {
    const { pagesHint } = await import('../pages-hint.js');
    await pagesHint(ctx, opts.embeddedPages);
  }
  const next = io.stderrIsTTY ? nextStep(data, opts) : undefined; // for a person, not a script
  if (next) io.err(`next: ${next}\n`);
}

/** What the person does now to get the order paid. */
function nextStep(data: CreatedOrder, opts: ShowOptions): string | undefined {
  const pay = `pgw sandbox pay ${data.order_id}`;
  // Kept short: the line fits 80 columns with the order_id.
  if (data.acs_template !== undefined) return opts.sandbox ? `approve on the 3-D Secure page, or: ${pay}` : 'the buyer approves on the 3-D Secure page';
  if (data.intent_uri !== undefined) {
    if (simulatorUrl(data)) return opts.sandbox ? `approve on the simulator page, or: ${pay}` : 'approve on the simulator page (see above)';
    return opts.sandbox ? `scan the QR code, or pay it here: ${pay}` : 'the buyer opens the intent in a UPI app';
  }
  if (data.session_id !== undefined) {
    const page = checkoutUrl(data, opts.pagesBase) ? 'the checkout page' : 'your checkout (session_id)';
    return opts.sandbox ? `pay on ${page}, or here: ${pay}` : `send the buyer to ${page}`;
  }
  if (data.message !== undefined) return opts.sandbox ? `the buyer approves the request; or: ${pay}` : 'the buyer approves the collect request';
  return opts.sandbox ? pay : undefined;
}

/** Where the 3-D Secure page goes when neither --acs-out nor --open said: asked, or kept in a private file. */
async function acsChoice(ctx: Context, data: CreatedOrder): Promise<{ file?: string; open: boolean }> {
  if (!ctx.io.canPrompt) return { open: false };
  const prompter = await ctx.loadPrompter();
  const choice = await prompter.select({
    message: 'The 3-D Secure page (the buyer approves the payment there)',
    choices: [
      { name: 'Open it in the browser', value: 'open' },
      { name: 'Save it to a file', value: 'save' },
    ],
    default: 'open',
  });
  if (choice === 'open') return { open: true };
  const file = await prompter.input({ message: 'File', default: `3ds-${data.order_id.replace(/[^A-Za-z0-9_-]/g, '_')}.html` });
  return { file: file.trim(), open: false };
}

async function privateFile(data: CreatedOrder): Promise<string> {
  // A private directory (0700) for the page; it stays for the browser (or the person) to read.
  return join(await mkdtemp(join(tmpdir(), 'pgw-3ds-')), `${data.order_id.replace(/[^A-Za-z0-9_-]/g, '_')}.html`);
}

async function handleAcs(ctx: Context, data: CreatedOrder, opts: ShowOptions, human: boolean): Promise<void> {
  ctx.guard.addCard(opts.secrets);
  const { html, masked } = acsHtml(data.acs_template!, ctx.guard);
  if (masked) ctx.io.err('warning: the 3-D Secure page quoted card data or the secret: it was masked before writing\n');
  // The page exists once: it is never dropped. Unasked, it is kept in a private file.
  const chosen = opts.acsOut || opts.open ? { file: opts.acsOut, open: opts.open } : await acsChoice(ctx, data);
  let file = chosen.file;
  const told = Boolean(opts.acsOut) && human; // the table already says where it went
  try {
    file ??= await privateFile(data);
    // Replaced whole at a random name beside it, 0600, never through a link (src/files/private-file.ts).
    writePrivateFile(file, html);
  } catch (err) {
    const kept = await privateFile(data).then((fallback) => (writePrivateFile(fallback, html), fallback)).catch(() => undefined);
    throw new PgwError(
      `order ${data.order_id} was created, but the 3-D Secure page could not be written to ${file}: ${fileProblem(err)}`,
      { code: 'WRITE_FAILED', suggestion: kept ? `it was kept at ${kept}: open it in a browser` : 'create the order again with a writable --acs-out path' },
    );
  }
  if (!told) ctx.io.err(`3-D Secure page written to ${file}${chosen.open || opts.acsOut ? '' : ' (open it in a browser)'}\n`);
  if (chosen.open) await openPage(ctx, file, opts, '3-D Secure page');
}

async function openPage(ctx: Context, target: string | undefined, opts: ShowOptions, what: string): Promise<void> {
  if (!target) {
    ctx.io.err(`warning: --open: the ${what} address is not known for this gateway\n`);
    return;
  }
  try {
    await opts.opener(target);
    ctx.io.err(`opened the ${what}: ${target}\n`);
  } catch (err) {
    // The order exists: a missing browser is a warning, not a failure of the command.
    ctx.io.err(`warning: could not open a browser (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the ${what} is at ${target}\n`);
  }
}
