// The partner operations (spec 4.8-4.10) through the one HTTP core. The core already sends the
// client pair only on /partners/ paths (spec part 5, rule 1: no X-API-Version, no X-Merchant-ID).
// A 403 here almost always means a merchant's credentials where a PSP's are needed: say so.
import type { ApiClient, ApiRequest } from '../../api/types.js';
import { AuthError } from '../../errors.js';

export const MERCHANTS_PATH = '/partners/merchants/';

export const merchantPath = (id: string): string => `${MERCHANTS_PATH}${id}/`;

const PSP_HINT = 'merchant commands need a PSP account: use a PSP profile (on the embedded sandbox: -p local-psp)';

export function withPspHint(err: unknown): unknown {
  if (err instanceof AuthError && err.status === 403) {
    return new AuthError(err.message, { code: err.code, details: err.details, status: err.status, suggestion: PSP_HINT });
  }
  return err;
}

export async function partnerRequest<T>(api: ApiClient, req: ApiRequest): Promise<T> {
  try {
    return await api.request<T>(req);
  } catch (err) {
    throw withPspHint(err);
  }
}
