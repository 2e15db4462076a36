// The lines `pgw sandbox env` prints (issue 32 item 4). They are eval'd by a shell or appended to
// $GITHUB_ENV, so a value must come out as itself and never as code: single quotes in sh and fish
// (nothing expands inside them), and no line break anywhere (in $GITHUB_ENV one would start a
// variable of its own). pgw's own credentials never hold such characters; a ready file might.
import { UsageError } from '../../errors.js';

export const SHELLS = ['sh', 'fish', 'github'] as const;
export type Shell = (typeof SHELLS)[number];

/** `--shell`: sh (bash and zsh read the same), fish or github; anything else is exit 2. */
export function shellOption(value: string | undefined): Shell {
  const v = (value ?? 'sh').trim().toLowerCase();
  if (v === 'bash' || v === 'zsh') return 'sh';
  if ((SHELLS as readonly string[]).includes(v)) return v as Shell;
  throw new UsageError(`--shell: "${value}" is not one of sh, fish, github`);
}

/** sh: close the quote, an escaped quote, reopen. */
const shQuote = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;
/** fish: inside single quotes only \\ and \' are escapes. */
const fishQuote = (v: string): string => `'${v.replace(/[\\']/g, (c) => `\\${c}`)}'`;

export function envLines(shell: Shell, pairs: [string, string][]): string {
  return pairs
    .map(([key, value]) => {
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${key}: the value holds a control character or line break: not printed`);
      if (shell === 'fish') return `set -gx ${key} ${fishQuote(value)}\n`;
      if (shell === 'github') return `${key}=${value}\n`;
      return `export ${key}=${shQuote(value)}\n`;
    })
    .join('');
}
