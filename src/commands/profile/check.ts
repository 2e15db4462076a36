// `profile add` in a terminal checks the credentials before storing them: one authenticated GET of
// a payment that cannot exist. Not found means the gateway accepted the credentials; 401/403
// means it refused them; no answer means they could not be checked.
import type { Context } from '../../context.js';
import { AuthError, NotFoundError, type PgwError } from '../../errors.js';
import { PUBLIC_BASE_URLS, type StoredProfile } from '../../config/types.js';

export type CheckResult = { ok: true; baseUrl: string } | { ok: false; refused: boolean; baseUrl: string; reason: string };

const PROBE = '/pg/payments/PR0000000000/';

export async function checkCredentials(ctx: Context, profile: StoredProfile): Promise<CheckResult> {
  const baseUrl = profile.base_url ?? PUBLIC_BASE_URLS[profile.env as 'sandbox' | 'production'];
  const [{ createClient }, dispatcher] = await Promise.all([import('../../api/client.js'), ctx.dispatcher()]);
  const client = createClient({
    baseUrl,
    clientId: profile.client_id,
    clientSecret: profile.client_secret,
    apiVersion: profile.api_version ?? '3.0.0',
    merchantId: profile.merchant_id,
    timeoutMs: 10_000,
    dispatcher,
    userAgent: `pgw/${ctx.version}`,
    signal: ctx.signal,
    retry: { maxRetries: 0 },
  });
  try {
    await client.request({ method: 'GET', path: PROBE });
    return { ok: true, baseUrl };
  } catch (err) {
    if (err instanceof NotFoundError) return { ok: true, baseUrl };
    if (err instanceof AuthError) return { ok: false, refused: true, baseUrl, reason: err.message };
    return { ok: false, refused: false, baseUrl, reason: (err as PgwError).message ?? String(err) };
  }
}
