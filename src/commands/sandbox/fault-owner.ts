// Whose faults `pgw sandbox fault` arms, lists and clears, said by name (issue 33 item 15): "the
// account in use" left a tester guessing which one, and whether the client under test would meet
// the fault at all. What can be known here, and so what is said:
// - the account: faults belong to the account whose credentials authenticate the request
//   (src/sandbox/handlers/faults.ts), named by the merchant_id the sandbox answers with, the
//   profile, and for the embedded profiles which demo account (merchant or PSP) they use;
// - X-Merchant-ID (-m, PGW_MERCHANT_ID, the profile's merchant_id) does not move a fault: a PSP's
//   requests acting for a sub-merchant meet the PSP's faults, the sub-merchant's own credentials
//   do not. A client that acts for a sub-merchant is told so rather than left to assume;
// - where the fault lives: the database of the embedded profile (and whether a `sandbox serve`
//   on that database runs, from its record: src/sandbox/serve-record.ts), or the sandbox at the
//   profile's base URL. Which credentials another client uses cannot be known from here: the
//   lines say which ones meet the fault, so a tester can compare.
import type { Context } from '../../context.js';

export interface FaultOwner {
  profile: string;
  clientId?: string;
  /** Known when the credentials are one of the database's demo accounts (the embedded profiles). */
  merchantId?: string;
  /** The embedded profiles' demo account, when the profile gives no credentials of its own. */
  demo?: 'merchant' | 'psp';
  /** X-Merchant-ID sent with these requests. */
  actingFor?: string;
  /** The embedded profile's database, and the serve running on it (if one does). */
  database?: { path: string; serveUrl?: string };
  /** The sandbox at the profile's base URL. */
  baseUrl?: string;
}

export async function faultOwner(ctx: Context): Promise<FaultOwner> {
  const profile = await ctx.profile();
  const target = await ctx.target();
  const demo = profile.env === 'embedded' && profile.clientId === undefined && profile.clientSecret === undefined ? (profile.account ?? 'merchant') : undefined;
  const owner: FaultOwner = { profile: profile.name, clientId: target.clientId, demo, actingFor: profile.merchantId };
  const { sandboxDbPath } = await import('../../config/paths.js');
  const dbPath = sandboxDbPath(ctx.configDir);
  if (target.embedded) {
    const { embeddedPages } = await import('../pages-hint.js');
    const pages = await embeddedPages(ctx);
    owner.database = { path: dbPath, serveUrl: pages.serving ? pages.baseUrl : undefined };
    owner.merchantId = (await ctx.embeddedSandbox()).accounts().find((a) => a.client_id === target.clientId)?.merchant_id;
  } else {
    owner.baseUrl = target.baseUrl.replace(/\/+$/, '');
    // The serve at that address runs on the embedded profiles' database: say which file holds the fault.
    const { readServeRecord } = await import('../../sandbox/serve-record.js');
    if (readServeRecord(dbPath)?.base_url === owner.baseUrl) owner.database = { path: dbPath, serveUrl: owner.baseUrl };
  }
  return owner;
}

/** `merchant 9931059865 (profile local-psp, demo PSP account)`; the client_id when the merchant is not known. */
export function ownerName(owner: FaultOwner, merchantId: string | undefined): string {
  const id = merchantId ?? owner.merchantId;
  const who = id !== undefined ? `merchant ${id}` : `the account of client_id ${owner.clientId ?? '(none)'}`;
  const demo = owner.demo ? `, demo ${owner.demo === 'psp' ? 'PSP' : 'merchant'} account` : '';
  return `${who} (profile ${owner.profile}${demo})`;
}

/** The lines after `fault add` (short: read at 80 columns): whose requests meet the fault, and where it lives. */
export function armedLines(owner: FaultOwner, merchantId: string | undefined, faultId: string): string[] {
  const id = merchantId ?? owner.merchantId;
  const lines = [`armed for ${ownerName(owner, id)}`];
  lines.push(owner.clientId ? `  requests with its credentials (client_id ${owner.clientId}) fail` : '  requests with its credentials fail');
  if (owner.actingFor !== undefined && owner.actingFor !== id) {
    lines.push(
      `  note: -m ${owner.actingFor} (X-Merchant-ID) does not move it: these credentials`,
      `  acting for ${owner.actingFor} fail; ${owner.actingFor}'s own credentials do not`,
    );
  } else if (owner.demo === 'psp') {
    lines.push("  a sub-merchant's own credentials do not meet it; the PSP's with -m do");
  }
  if (owner.database?.serveUrl) {
    lines.push(`  stored in ${owner.database.path}`, `  (the database of the serve at ${owner.database.serveUrl}: it applies there too)`);
  } else if (owner.database) {
    lines.push(`  stored in ${owner.database.path}`, '  (a pgw sandbox serve without --db applies it too; one with --db has its own)');
  } else if (owner.baseUrl) {
    lines.push(`  stored in the sandbox at ${owner.baseUrl}`);
  }
  lines.push(`remove it with: pgw sandbox fault clear ${faultId}`);
  return lines;
}
