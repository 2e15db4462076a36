// The registration of a listener with pgw's sandbox (POST/DELETE /sandbox/webhooks/), through a
// client Ctrl-C does not cut short: the registration must still be removed after the signal that
// stops the listener (ctx.api() is bound to that signal).
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { NotFoundError } from '../../errors.js';
import { WEBHOOKS_PATH, type WebhookView } from '../sandbox/webhook.js';

/** Removing the registration at stop: the sandbox is local, so this is generous. */
const REGISTRATION_TIMEOUT_MS = 5000;

export interface Registration {
  hook: WebhookView;
  /** Remove it; false after a warning on stderr when it could not be (the sandbox drops it later). */
  remove(): Promise<boolean>;
}

/** What the sandbox is told besides the receiver's address (issue 45): it decides per event whether this listener forwards. */
export interface ListenerRegistration {
  forwardTo?: string;
  events?: readonly string[];
}

export async function registerListener(ctx: Context, url: string, opts: ListenerRegistration = {}): Promise<Registration> {
  const client = await registrationClient(ctx);
  const hook = await register(client, { url, listener: true, ...(opts.forwardTo !== undefined ? { forward_to: opts.forwardTo } : {}), ...(opts.events ? { events: [...opts.events] } : {}) });
  return { hook, remove: () => deregister(ctx, client, hook) };
}

/** Its own client: the run's signal (Ctrl-C) must not cut short the removal of the registration. */
function registrationClient(ctx: Context): Promise<ApiClient> {
  return ctx.createApi({ maxTimeoutMs: REGISTRATION_TIMEOUT_MS });
}

async function register(client: ApiClient, body: Record<string, unknown>): Promise<WebhookView> {
  try {
    return await client.request<WebhookView>({ method: 'POST', path: WEBHOOKS_PATH, body });
  } catch (err) {
    if (err instanceof NotFoundError && err.code === 'ERR_NOT_FOUND_000') {
      throw new NotFoundError(err.message, {
        ...err,
        suggestion: "this address has no /sandbox/ helpers, so pgw listen cannot register: it registers only with pgw's own sandbox (profiles local and local-psp, or pgw sandbox serve)",
      });
    }
    throw err;
  }
}

async function deregister(ctx: Context, client: ApiClient, hook: WebhookView): Promise<boolean> {
  try {
    await client.request({ method: 'DELETE', path: `${WEBHOOKS_PATH}${hook.id}/` });
    return true;
  } catch (err) {
    // Already dropped (the sandbox found this receiver gone, or someone removed it): nothing is left.
    if (err instanceof NotFoundError) return true;
    ctx.log(`warning: could not remove registration ${hook.id} (${(err as Error).message}); the sandbox drops it at its next event`);
    return false;
  }
}
