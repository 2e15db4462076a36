// pgw webhook verify --file body.json --signature <hex | t=...,v2=...> [--key-stdin]: the check a
// receiver makes (vendor 1.2, N11), for a developer whose handler rejects events. The body is
// read as bytes (a re-encoded body is exactly what breaks signatures); the key never comes from
// argv and is never printed.
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { PgwError, UsageError } from '../../errors.js';
import { emit } from '../../output/render.js';
import { parseV2, sameSignature, signBody, signV2, verifySignature } from '../../webhook-signature.js';
import { readSecretsFromStdin } from '../profile/add.js';
import { listenMode } from '../listen/mode.js';

export interface VerifyOptions {
  file: string;
  signature: string;
  keyStdin?: boolean;
}

export interface VerifyResult {
  valid: true;
  /** Which header's form was checked. */
  header: 'X-Webhook-Signature' | 'X-Webhook-Signature-V2';
  /** What matched: the raw body, or (X-Webhook-Signature only) the body re-serialised with sorted keys. */
  matched: 'raw body' | 'sorted keys';
  /** V2 only: the signed Unix time. */
  timestamp?: number;
  /**
   * The file ended with a line break the sent body did not have, and the body without it matches
   * (a body copied from `pgw events get` into an editor, which adds one on save).
   */
  ignored_final_newline?: true;
}

/** The body without one final line break (\n or \r\n), or undefined when it has none. */
function withoutFinalNewline(body: Buffer): Buffer | undefined {
  if (body.at(-1) !== 0x0a) return undefined;
  return body.subarray(0, body.length - (body.at(-2) === 0x0d ? 2 : 1));
}

async function readBody(ctx: Context, path: string): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--file: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'cannot be read')}`);
  }
}

async function encryptionKey(ctx: Context, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readSecretsFromStdin(ctx.io.stdin, ['--key-stdin']))[0]!;
  const profile = await ctx.profile();
  if (profile.encryptionKey) return profile.encryptionKey;
  if (listenMode(profile).kind === 'sandbox') {
    // pgw's own sandbox knows the key of the account in use (GET /sandbox/encryption-key/).
    const api = await ctx.api();
    const key = (await api.request<{ encryption_key: string | null }>({ method: 'GET', path: '/sandbox/encryption-key/' })).encryption_key;
    if (key) {
      ctx.guard.addSecret(key);
      return key;
    }
  }
  throw new UsageError(`no Encryption Key: profile "${profile.name}" holds none`, {
    suggestion: 'pipe it with --key-stdin, or store it: pgw profile add <name> --force ... --encryption-key-stdin (or set PGW_ENCRYPTION_KEY)',
  });
}

export async function runWebhookVerify(ctx: Context, opts: VerifyOptions): Promise<void> {
  const signature = opts.signature.trim();
  const v2 = signature.includes('v2=') ? parseV2(signature) : undefined;
  if (signature.includes('v2=') && (!v2 || !/^[0-9a-fA-F]{64}$/.test(v2.v2))) throw new UsageError('--signature: an X-Webhook-Signature-V2 value has the form t=<unix time>,v2=<64 hex characters>');
  if (!v2 && !/^[0-9a-fA-F]{64}$/.test(signature)) {
    throw new UsageError(`--signature: expected 64 hex characters (X-Webhook-Signature) or t=...,v2=... (X-Webhook-Signature-V2); got ${signature.length} characters`);
  }
  if (opts.file === '-' && opts.keyStdin) throw new UsageError('--file - and --key-stdin both read stdin: save the body to a file, or store the key in the profile');
  const body = await readBody(ctx, opts.file);
  const key = await encryptionKey(ctx, opts.keyStdin === true);

  let result: VerifyResult;
  const trimmed = withoutFinalNewline(body);
  if (v2) {
    const v2Matches = (b: Buffer) => sameSignature(parseV2(signV2(key, v2.t, b))!.v2, v2.v2);
    const exact = v2Matches(body);
    if (!exact && !(trimmed && v2Matches(trimmed))) {
      throw new PgwError('signature does not match: HMAC-SHA256 of "<t>." + the body differs (a different key, a changed body or a changed t)', { code: 'SIGNATURE_MISMATCH' });
    }
    result = { valid: true, header: 'X-Webhook-Signature-V2', matched: 'raw body', timestamp: Number(v2.t), ...(exact ? {} : { ignored_final_newline: true as const }) };
  } else {
    const verdict = verifySignature(key, body, signature);
    // A saved copy with a final line break: the raw bytes without it, before the sorted-keys fallback.
    if (!(verdict.ok && verdict.how === 'raw body') && trimmed && sameSignature(signBody(key, trimmed), signature)) {
      result = { valid: true, header: 'X-Webhook-Signature', matched: 'raw body', ignored_final_newline: true };
    } else {
      if (!verdict.ok) throw new PgwError(`signature does not match: ${verdict.reason}`, { code: 'SIGNATURE_MISMATCH' });
      result = { valid: true, header: 'X-Webhook-Signature', matched: verdict.how };
    }
  }
  await emit(ctx.io, ctx.output, result, () => {
    if (result.ignored_final_newline) ctx.io.err('note: the file ends with a line break the body as sent did not have (an editor adds one); the body without it was checked\n');
    ctx.io.out(
      result.matched === 'raw body'
        ? `valid: ${result.header} matches the HMAC-SHA256 of the body as saved\n`
        : `valid, but only after re-serialising with sorted keys: the saved body is not the bytes that were sent (hash the raw body in your handler)\n`,
    );
  });
}
