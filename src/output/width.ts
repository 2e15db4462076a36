// The width tables must fit this run: the terminal's columns (80 when a terminal does not say),
// none for a pipe or file. Set once per run by program.ts from io, like colour (theme.ts), so the
// render calls keep their short signature. A module of its own: setting the width loads no
// renderer, and `pgw --help` draws no table.
let outputWidth: number | undefined;
/** `--wide`: tables are not fitted (every column at its natural width); details still fold. */
let wide = false;

export function setOutputWidth(width: number | undefined): void {
  outputWidth = width;
}

export function getOutputWidth(): number | undefined {
  return outputWidth;
}

export function setWideTables(value: boolean): void {
  wide = value;
}

/** The width a table is fitted to: none with --wide, or on a pipe. */
export function getTableWidth(): number | undefined {
  return wide ? undefined : outputWidth;
}
