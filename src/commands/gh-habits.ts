// gh's habits, met halfway (issue 22 item 9). People who live in `gh` type `--jq` and
// `--json status,title`: in pgw, `--json` is a switch (the whole object, as the gateway sends it)
// and fields are picked with `--query` (JMESPath, as `aws --query`). Each habit is refused with
// that hint, before any request, rather than a bare "unknown option" or a look-up of an ID called
// "status".
import { UsageError } from '../errors.js';

/** `status`, `payment_id,status`, `headRefName`: words without digits, as no gateway ID is. */
const FIELD_LIST = /^[a-z][A-Za-z_]*(,[a-z][A-Za-z_]*)*$/;

/** The word after `--json` when it reads as gh's field list (argv before `--` only). */
export function jsonFieldList(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length - 1; i++) {
    if (argv[i] === '--') return undefined;
    if (argv[i] === '--json' && FIELD_LIST.test(argv[i + 1]!)) return argv[i + 1];
  }
  return undefined;
}

/** A --query that picks those fields: `status`, or `{payment_id: payment_id, status: status}`. */
function queryFor(fields: string): string {
  const names = fields.split(',');
  return names.length === 1 ? names[0]! : `'{${names.map((n) => `${n}: ${n}`).join(', ')}}'`;
}

export function fieldListError(fields: string): UsageError {
  return new UsageError(`--json takes no field list in pgw ("--json ${fields}" is gh's): it prints the whole object; pick fields with --query (JMESPath)`, {
    code: 'USAGE',
    suggestion: `--query ${queryFor(fields)} (a list: --query '[].${fields.split(',')[0]}')`,
  });
}

export function jqError(): UsageError {
  return new UsageError("--jq is gh's: pgw filters JSON with --query (JMESPath), e.g. --query status or --query '[].payment_id'", { code: 'USAGE' });
}
