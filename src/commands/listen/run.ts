// pgw listen: receive the gateway's webhook events, show each, and forward it to the developer's
// app. On pgw's sandbox the receiver registers itself for the account in use and removes that
// registration when it stops (Ctrl-C, SIGTERM: bin/ aborts ctx.signal); a listener killed before
// it could is dropped by the sandbox on its next event (src/sandbox/webhooks.ts).
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isEventType, notAnEvent } from '../../events.js';
import { applyQuery, wantsJson } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { httpUrlOption } from '../parse.js';
import { announce, printKey } from './announce.js';
import { createForwarder, type ForwardResult } from './forward.js';
import { eventIdOf, notForwardedBecause, refuseLoop } from './forwarding.js';
import { listenMode } from './mode.js';
import { eventLine, forwardText, jsonLine, parseEvent, type ParsedEvent, type SignatureMark } from './present.js';
import { SIGNATURE_HEADER, verifySignature } from '../../webhook-signature.js';
import { startReceiver, type ReceivedEvent, type Receiver } from './receiver.js';
import { registerListener, type Registration } from './registration.js';
import { ForwardTally, type Entry } from './tally.js';

export interface ListenOptions {
  forwardTo?: string;
  events?: string;
  port?: string;
  /** Print the account's Encryption Key (for a .env file) and stop. */
  printKey?: boolean;
  /** Once receiving (and registered), write a JSON line here (issue 24). */
  readyFile?: string;
}

/** What a stop gives forwards still waiting or on the wire, without --timeout (issue 45). */
export const STOP_TIMEOUT_MS = 5000;

function portOption(value: string): number {
  if (!/^[0-9]+$/.test(value.trim()) || Number.parseInt(value, 10) > 65_535) {
    throw new UsageError(`--port: "${value}" is not a port number (0-65535)`);
  }
  return Number.parseInt(value, 10);
}

/** --events PAYMENT_SETTLED,PAYMENT_FAILED (any case). On pgw's sandbox only the names it sends. */
export function eventsOption(value: string | undefined, sandbox: boolean): Set<string> | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((n) => n.trim().toUpperCase())
    .filter((n) => n !== '');
  if (names.length === 0) throw new UsageError('--events: give one or more event names, e.g. PAYMENT_SETTLED,PAYMENT_SUCCESSFUL');
  for (const name of names) {
    if (sandbox ? !isEventType(name) : !/^[A-Z][A-Z0-9_.]{0,63}$/.test(name)) {
      throw new UsageError(`--events: ${sandbox ? notAnEvent(name) : `"${name}" is not an event name`}`);
    }
  }
  return new Set(names);
}

export async function runListen(ctx: Context, opts: ListenOptions): Promise<void> {
  // Everything that needs no network first (exit 2, nothing registered).
  const forwardTo = opts.forwardTo === undefined ? undefined : httpUrlOption('--forward-to', opts.forwardTo);
  const requestedPort = opts.port === undefined ? undefined : portOption(opts.port);
  const { readyFileOption, writeReadyFile } = await import('../ready-file.js');
  const readyFile = readyFileOption(opts.readyFile);
  const profile = await ctx.profile();
  const mode = listenMode(profile);
  if (opts.printKey) {
    await printKey(ctx, mode.kind === 'sandbox', profile.encryptionKey, profile.name);
    return;
  }
  const filter = eventsOption(opts.events, mode.kind === 'sandbox');
  if (mode.kind === 'receiver' && requestedPort === undefined) {
    throw new UsageError(`--port is required on profile "${profile.name}": ${mode.why}, so pgw listen only receives, on the port your tunnel forwards to`);
  }
  // Issue 45: a forward to the listener's own port loops; a free port is checked once it is known.
  if (requestedPort !== undefined && requestedPort !== 0) refuseLoop(forwardTo, requestedPort);
  const stopMs = await stopTimeout(ctx);
  const output = ctx.output;
  const json = wantsJson(output);
  const theme = createTheme(ctx.io.colorOut);
  const errTheme = createTheme(ctx.io.colorErr);
  const secret = profile.clientSecret;
  // The key that checks each event's signature: the profile's, else (on pgw's sandbox) the one
  // the registration answers with. Never printed; known to the output guard so no echo shows it.
  let key = profile.encryptionKey;

  const forwarder = forwardTo ? createForwarder(forwardTo) : undefined;
  const tally = new ForwardTally();
  // Set when the stop's time ran out: nothing more is forwarded or printed (the tally names it).
  let cutOff = false;
  // Events are shown and forwarded one at a time, in the order they arrived.
  let queue: Promise<void> = Promise.resolve();
  // `pgw listen --json | head -1`: once the reader of stdout has gone, the listener stops as on
  // SIGTERM (registration removed, exit 0) instead of running on unseen.
  const readerGone = new AbortController();
  const handle = async (event: ReceivedEvent, parsed: ParsedEvent, entry: Entry | undefined): Promise<void> => {
    if (cutOff) return;
    if (filter && !filter.has(parsed.name.toUpperCase())) {
      if (entry) tally.filtered(entry);
      return;
    }
    const mark = signatureMark(event, key);
    if (json) {
      if (output.query === undefined) ctx.io.out(jsonLine(event.body, secret));
      else ctx.io.out(await queryLine(event.body, secret, output.query));
    }
    // The sandbox's decision for this event (store/forwarding.ts): it may reach the app without us.
    const elsewhere = forwarder ? notForwardedBecause(event) : undefined;
    let result: ForwardResult | undefined;
    if (forwarder && elsewhere === undefined) {
      if (entry) tally.sending(entry);
      result = await forwarder.forward(event.body, event.rawHeaders);
    }
    if (cutOff) return;
    if (entry && elsewhere !== undefined) tally.elsewhere(entry);
    else if (entry && result) tally.forwarded(entry, result);
    if (!json) ctx.io.out(eventLine(event.receivedAt, parsed, result, theme, ctx.io.columns, mark, elsewhere));
    else {
      if (mark === 'bad' || mark === 'unsigned') ctx.io.err(`${parsed.name}: ${mark === 'bad' ? 'the signature does not verify with the Encryption Key' : 'no X-Webhook-Signature'}\n`);
      if (result) ctx.io.err(`${parsed.name} ${forwardText(result, errTheme)}\n`);
      if (elsewhere !== undefined) ctx.io.err(`${parsed.name} → not forwarded: ${elsewhere}\n`);
    }
    if (ctx.io.stdoutReaderGone) readerGone.abort();
  };
  const onEvent = (event: ReceivedEvent) => {
    const parsed = parseEvent(event.body);
    const entry = forwarder ? tally.acknowledged(eventIdOf(event, parsed.envelope?.sequence_number)) : undefined;
    queue = queue.then(() => handle(event, parsed, entry)).catch((err: Error) => (cutOff ? undefined : ctx.log(`listen: ${err.message}`)));
  };

  const path = mode.kind === 'sandbox' ? `/pgw-listen/${randomBytes(12).toString('hex')}/` : undefined;
  let receiver: Receiver;
  try {
    receiver = await startReceiver({ port: requestedPort ?? 0, path, onEvent, now: ctx.clock });
  } catch (err) {
    await forwarder?.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${requestedPort} on 127.0.0.1 is in use: choose another with --port`);
    throw err;
  }

  let registration: Registration | undefined;
  let removed = false;
  try {
    refuseLoop(forwardTo, receiver.port);
    // The sandbox decides per event whether this listener forwards (issue 45): it is told where to, and what it shows.
    if (mode.kind === 'sandbox') registration = await registerListener(ctx, receiver.url, { forwardTo, events: filter ? [...filter] : undefined });
    if (registration?.hook.encryption_key && key === undefined) {
      key = registration.hook.encryption_key;
      ctx.guard.addSecret(key);
    }
    announce(ctx, { mode, receiver, forwardTo, filter, hook: registration?.hook, profileName: profile.name });
    // Receiving and (on pgw's sandbox) registered: ready (issue 24). Never the Encryption Key.
    if (readyFile) {
      writeReadyFile(ctx, readyFile, { receiver: receiver.url, registration: registration?.hook.id ?? null, events: filter ? [...filter] : null, forward_to: forwardTo ?? null });
    }
    await Promise.race([untilAborted(ctx.signal), untilAborted(readerGone.signal)]);
  } finally {
    // The stop (issue 45): take nothing more, leave the sandbox, then finish what was acknowledged.
    receiver.stopAccepting();
    if (registration) removed = await registration.remove();
    if (!(await settledWithin(queue, stopMs))) {
      cutOff = true;
      tally.cutOff(`the stop's ${stopMs} ms (--timeout)`);
    }
    await receiver.close();
    await forwarder?.close(cutOff);
  }
  if (forwardTo !== undefined) ctx.io.err(`${tally.summary(forwardTo, mode.kind === 'sandbox').join('\n')}\n`);
  const why = readerGone.signal.aborted && !ctx.signal.aborted ? ' (nothing reads its output any more)' : '';
  ctx.io.err(`listener stopped${why}${registration && removed ? `; registration ${registration.hook.id} removed` : ''}\n`);
}

/** How long a stop finishes forwarding: the global --timeout (ms, 30s, 2m), else STOP_TIMEOUT_MS (PGW_TIMEOUT, a per-request limit, is not read). */
async function stopTimeout(ctx: Context): Promise<number> {
  const given = ctx.globals.timeout;
  if (given === undefined) return STOP_TIMEOUT_MS;
  const { parseTimeout } = await import('../../config/profiles.js');
  return parseTimeout(given, '--timeout');
}

/** Whether X-Webhook-Signature verifies (vendor 1.2); undefined when no key is known. */
function signatureMark(event: ReceivedEvent, key: string | undefined): SignatureMark | undefined {
  if (key === undefined) return undefined;
  let signature: string | undefined;
  for (let i = 0; i + 1 < event.rawHeaders.length; i += 2) {
    if (event.rawHeaders[i]!.toLowerCase() === SIGNATURE_HEADER.toLowerCase()) signature = event.rawHeaders[i + 1];
  }
  if (signature === undefined) return 'unsigned';
  return verifySignature(key, event.body, signature).ok ? 'ok' : 'bad';
}

async function queryLine(body: Buffer, secret: string | undefined, query: string): Promise<string> {
  const masked = JSON.parse(jsonLine(body, secret)) as unknown;
  const result = await applyQuery(masked, query);
  return typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result ?? null)}\n`;
}

/** Whether `work` finished within `ms`. */
async function settledWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([work.then(() => true), late]);
  clearTimeout(timer);
  return done;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
