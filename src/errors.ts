// Typed errors and the contract's exit-code table. Commands throw these; run() maps them.

export const ExitCode = {
  ok: 0,
  gateway: 1,
  usage: 2,
  network: 3,
  auth: 4,
  notFound: 5,
  refused: 6,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorInfo {
  code?: string;
  details?: Record<string, unknown>;
  status?: number;
  suggestion?: string;
}

export class PgwError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.gateway;
  readonly code?: string;
  readonly details?: Record<string, unknown>;
  readonly status?: number;
  readonly suggestion?: string;

  constructor(message: string, info: ErrorInfo = {}) {
    super(message);
    this.name = new.target.name;
    this.code = info.code;
    this.details = info.details;
    this.status = info.status;
    this.suggestion = info.suggestion;
  }
}

/**
 * Invalid usage or input; nothing was sent (exit 2). Its code is `USAGE` unless one is given
 * (ValidationError's `VALIDATION`): scripts read `error.code` of a JSON error, and a refusal
 * thrown without one printed `"code": null` (issue 31 item 10).
 */
export class UsageError extends PgwError {
  override readonly exitCode = ExitCode.usage;

  constructor(message: string, info: ErrorInfo = {}) {
    super(message, { ...info, code: info.code ?? 'USAGE' });
  }
}

/** Input failed validation; `problems` holds one message per field path (exit 2). */
export class ValidationError extends UsageError {
  constructor(
    readonly problems: { path: string; message: string }[],
    heading = 'invalid input',
  ) {
    super(
      problems.length === 1
        ? `${problems[0]!.path ? `${problems[0]!.path}: ` : ''}${problems[0]!.message}`
        : `${heading}: ${problems.length} problems`,
      { code: 'VALIDATION', details: Object.fromEntries(problems.map((p) => [p.path || '(body)', p.message])) },
    );
  }
}

/** The gateway answered with an error or an unexpected status (exit 1). */
export class GatewayError extends PgwError {
  override readonly exitCode = ExitCode.gateway;
}

/** Missing or rejected credentials (exit 4). */
export class AuthError extends PgwError {
  override readonly exitCode = ExitCode.auth;
}

/** The gateway's not-found codes, or 404 (exit 5). */
export class NotFoundError extends PgwError {
  override readonly exitCode = ExitCode.notFound;
}

/** The gateway could not be reached or did not answer in time (exit 3). */
export class NetworkError extends PgwError {
  override readonly exitCode = ExitCode.network;
}

/**
 * A write (POST, PATCH...) whose answer never came after it may have reached the gateway: it may
 * have been applied. Never sent again (exit 3); `request` names it, for the verb's own hint.
 */
export class OutcomeUnknownError extends NetworkError {
  constructor(
    message: string,
    readonly request: string,
    info: ErrorInfo = {},
  ) {
    super(message, info);
  }
}

/** A safety rail refused: sandbox-only on production, or an unconfirmed production change (exit 6). */
export class RefusedError extends PgwError {
  override readonly exitCode = ExitCode.refused;
}

/** The user interrupted (Ctrl-C at a prompt, SIGINT) (exit 130). */
export class InterruptedError extends PgwError {
  override readonly exitCode = ExitCode.interrupted;
}

/**
 * The command has already told the user what went wrong (e.g. one line per failed ID of a
 * multi-ID lookup); run() only returns its exit code.
 */
export class ReportedError extends PgwError {
  constructor(
    override readonly exitCode: ExitCodeValue,
    message = 'failed',
  ) {
    super(message);
  }
}

export function exitCodeFor(err: unknown): ExitCodeValue {
  if (err instanceof PgwError) return err.exitCode;
  return ExitCode.gateway;
}

/** Gateway details are keyed by field or category; values are messages or lists of them. */
export function detailLines(details: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === null || v === undefined || v === '') continue;
      lines.push(`${key}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    }
  }
  return lines;
}

/**
 * The lines a person reads for an error: the message, then each problem (a validation with
 * several) or the gateway's details, then the hint. `name` rewrites what names a field (the
 * message and each problem's path): `pgw mcp` says the tool's argument where the command line
 * says its flag.
 */
export function errorLines(err: PgwError, name: (text: string) => string = (text) => text): string[] {
  const lines = [`error: ${name(err.message)}`];
  if (err instanceof ValidationError && err.problems.length > 1) {
    for (const p of err.problems) lines.push(`  ${p.path ? `${name(p.path)}: ` : ''}${p.message}`);
  } else if (!(err instanceof ValidationError) && err.details) {
    for (const line of detailLines(err.details)) lines.push(`  ${line}`);
  }
  if (err.suggestion) lines.push(`hint: ${err.suggestion}`);
  return lines;
}
