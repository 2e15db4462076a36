// Profile shapes shared by the store, the resolver and the commands.

/** `embedded` profiles run the sandbox in-process (built-in `local` and `local-psp`). */
export type ProfileEnv = 'sandbox' | 'production' | 'embedded';

export interface StoredProfile {
  env: ProfileEnv;
  base_url?: string;
  client_id?: string;
  client_secret?: string;
  /** The webhook Encryption Key (vendor 1.2): a secret like client_secret, never printed unmasked. */
  encryption_key?: string;
  merchant_id?: string;
  api_version?: string;
  /** For embedded profiles: which seeded sandbox account to act as (`merchant` or `psp`). */
  account?: 'merchant' | 'psp';
}

/** Everything a request needs, after flag > environment > profile > default. */
export interface ResolvedProfile {
  name: string;
  env: ProfileEnv;
  builtIn: boolean;
  /** Absent for embedded profiles until the in-process sandbox is started. */
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** From the profile or PGW_ENCRYPTION_KEY: checks webhook signatures (pgw listen, webhook verify). */
  encryptionKey?: string;
  merchantId?: string;
  apiVersion: string;
  timeoutMs: number;
  account?: 'merchant' | 'psp';
}

export const DEFAULT_API_VERSION = '3.0.0';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const PUBLIC_BASE_URLS = {
  sandbox: 'https://api-pacb-uat.eximpe.com',
  production: 'https://api-pacb.eximpe.com',
} as const;

export type Env = Record<string, string | undefined>;

/** Global options as commander parsed them (flags only; the environment is applied in resolution). */
export interface GlobalOptions {
  profile?: string;
  output?: string;
  csvRaw?: boolean;
  /** --wide: tables are not fitted to the terminal (output/width.ts). */
  wide?: boolean;
  json?: boolean;
  query?: string;
  baseUrl?: string;
  apiVersion?: string;
  merchant?: string;
  timeout?: string;
  verbose?: boolean;
  color?: boolean;
  input?: boolean;
  yes?: boolean;
}
