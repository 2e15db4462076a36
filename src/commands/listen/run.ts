// pgw listen: receive the gateway's webhook events, show each, and forward it to the developer's
// app. On pgw's sandbox the receiver registers itself for the account in use and removes that
// registration when it stops (Ctrl-C, SIGTERM: bin/ aborts ctx.signal); a listener killed before
// it could is dropped by the sandbox on its next event (src/sandbox/webhooks.ts).
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EVENT_TYPES, isEventType, notAnEvent } from '../../events.js';
import { applyQuery, wantsJson } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { httpUrlOption } from '../parse.js';
import type { WebhookView } from '../sandbox/webhook.js';
import { createForwarder, type ForwardResult } from './forward.js';
import { notForwardingLine, registeredTwin } from './duplicate.js';
import { listenMode } from './mode.js';
import { eventLine, forwardText, jsonLine, parseEvent, type SignatureMark } from './present.js';
import { SIGNATURE_HEADER, verifySignature } from '../../webhook-signature.js';
import { startReceiver, type ReceivedEvent, type Receiver } from './receiver.js';
import { registerListener, type Registration } from './registration.js';

export interface ListenOptions {
  forwardTo?: string;
  events?: string;
  port?: string;
  /** Print the account's Encryption Key (for a .env file) and stop. */
  printKey?: boolean;
  /** Once receiving (and registered), write a JSON line here (issue 24). */
  readyFile?: string;
}

/** What a stop waits for forwards still running before it cuts them off. */
const STOP_GRACE_MS = 3000;

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
  const output = ctx.output;
  const json = wantsJson(output);
  const theme = createTheme(ctx.io.colorOut);
  const errTheme = createTheme(ctx.io.colorErr);
  const secret = profile.clientSecret;
  // The key that checks each event's signature: the profile's, else (on pgw's sandbox) the one
  // the registration answers with. Never printed; known to the output guard so no echo shows it.
  let key = profile.encryptionKey;

  let forwarder = forwardTo ? createForwarder(forwardTo) : undefined;
  // Events are shown and forwarded one at a time, in the order they arrived.
  let queue: Promise<void> = Promise.resolve();
  // `pgw listen --json | head -1`: once the reader of stdout has gone, the listener stops as on
  // SIGTERM (registration removed, exit 0) instead of running on unseen.
  const readerGone = new AbortController();
  const handle = async (event: ReceivedEvent): Promise<void> => {
    const parsed = parseEvent(event.body);
    if (filter && !filter.has(parsed.name.toUpperCase())) return;
    const mark = signatureMark(event, key);
    if (json) {
      if (output.query === undefined) ctx.io.out(jsonLine(event.body, secret));
      else ctx.io.out(await queryLine(event.body, secret, output.query));
    }
    let result: ForwardResult | undefined;
    if (forwarder) result = await forwarder.forward(event.body, event.rawHeaders);
    if (!json) ctx.io.out(eventLine(event.receivedAt, parsed, result, theme, ctx.io.columns, mark));
    else {
      if (mark === 'bad' || mark === 'unsigned') ctx.io.err(`${parsed.name}: ${mark === 'bad' ? 'the signature does not verify with the Encryption Key' : 'no X-Webhook-Signature'}\n`);
      if (result) ctx.io.err(`${parsed.name} ${forwardText(result, errTheme)}\n`);
    }
    if (ctx.io.stdoutReaderGone) readerGone.abort();
  };
  const onEvent = (event: ReceivedEvent) => {
    queue = queue.then(() => handle(event)).catch((err: Error) => ctx.log(`listen: ${err.message}`));
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
  // Forwarding to an address the sandbox already posts to would deliver everything twice: shown,
  // not forwarded (duplicate.ts). Decided before registering, so no event is forwarded first.
  let forwarding = forwardTo;
  try {
    const twin = mode.kind === 'sandbox' && forwardTo !== undefined ? await registeredTwin(ctx, forwardTo) : undefined;
    if (twin && forwardTo !== undefined) {
      ctx.io.err(`${notForwardingLine(forwardTo, twin)}\n`);
      await forwarder?.close();
      forwarder = undefined;
      forwarding = undefined;
    }
    if (mode.kind === 'sandbox') registration = await registerListener(ctx, receiver.url);
    if (registration?.hook.encryption_key && key === undefined) {
      key = registration.hook.encryption_key;
      ctx.guard.addSecret(key);
    }
    announce(ctx, { mode, receiver, forwardTo: forwarding, notForwarded: forwarding === forwardTo ? undefined : forwardTo, filter, hook: registration?.hook, profileName: profile.name });
    // Receiving and (on pgw's sandbox) registered: ready (issue 24). Never the Encryption Key.
    if (readyFile) {
      writeReadyFile(ctx, readyFile, { receiver: receiver.url, registration: registration?.hook.id ?? null, events: filter ? [...filter] : null, forward_to: forwarding ?? null });
    }
    await Promise.race([untilAborted(ctx.signal), untilAborted(readerGone.signal)]);
  } finally {
    if (registration) removed = await registration.remove();
    await drain(queue);
    await receiver.close();
    await forwarder?.close();
  }
  const why = readerGone.signal.aborted && !ctx.signal.aborted ? ' (nothing reads its output any more)' : '';
  ctx.io.err(`listener stopped${why}${registration && removed ? `; registration ${registration.hook.id} removed` : ''}\n`);
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

/**
 * --print-key: the Encryption Key alone on stdout, for `pgw listen --print-key >> .env` style use
 * (stripe listen --print-secret). It is the one place pgw prints the key, because it was asked to.
 */
async function printKey(ctx: Context, sandbox: boolean, profileKey: string | undefined, profileName: string): Promise<void> {
  let key = profileKey;
  if (key === undefined && sandbox) {
    const api = await ctx.api();
    key = (await api.request<{ encryption_key: string | null }>({ method: 'GET', path: '/sandbox/encryption-key/' })).encryption_key ?? undefined;
  }
  if (key === undefined) {
    throw new UsageError(`profile "${profileName}" holds no webhook Encryption Key`, {
      suggestion: `copy it from the dashboard's Developer section, then: pgw profile add ${profileName} --force ... --encryption-key-stdin`,
    });
  }
  ctx.io.outOwn(`${key}\n`);
}

async function queryLine(body: Buffer, secret: string | undefined, query: string): Promise<string> {
  const masked = JSON.parse(jsonLine(body, secret)) as unknown;
  const result = await applyQuery(masked, query);
  return typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result ?? null)}\n`;
}

async function drain(queue: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
  await Promise.race([queue, grace]);
  clearTimeout(timer);
}

function announce(
  ctx: Context,
  a: { mode: ReturnType<typeof listenMode>; receiver: Receiver; forwardTo?: string; notForwarded?: string; filter?: Set<string>; hook?: WebhookView; profileName: string },
): void {
  const events = a.filter ? [...a.filter].join(', ') : a.mode.kind === 'sandbox' ? `every event (${EVENT_TYPES.join(', ')})` : 'every event';
  const lines: string[] = [];
  if (a.mode.kind === 'sandbox') {
    // Short lines: the block stays whole on an 80-column terminal.
    lines.push(`Listening for ${a.filter ? events : 'every event'} of merchant ${a.hook?.merchant_id ?? '?'} (profile "${a.profileName}")`);
    if (!a.filter) lines.push(`  events        ${EVENT_TYPES.join(', ')}`);
    lines.push(`  receiver      ${a.receiver.url}`);
    lines.push(`  registration  ${a.hook?.id}`);
  } else {
    lines.push(`Receiving ${events} on http://127.0.0.1:${a.receiver.port}/ — nothing registered: ${a.mode.why}.`);
    lines.push('  The gateway must reach it from the internet: run a public tunnel to it, e.g.');
    lines.push(`    cloudflared tunnel --url http://127.0.0.1:${a.receiver.port}    or    ngrok http ${a.receiver.port}`);
    lines.push("  and configure the tunnel's https address as the webhook URL in the merchant dashboard.");
  }
  lines.push(
    a.forwardTo
      ? `  forwarding to ${a.forwardTo}`
      : a.notForwarded
        ? `  not forwarding: ${a.notForwarded} gets each event from the sandbox`
        : '  not forwarding (add --forward-to <url> to pass events to your app)',
  );
  lines.push('Press Ctrl-C to stop.');
  ctx.io.err(`${lines.join('\n')}\n`);
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
