// The columns this run's tables dropped to fit the terminal (fit.ts, render.ts): said once on
// stderr when the run ends (main.ts), after the data, so a person knows the table is not whole and
// how to see it all (contract, "Output rules": "saying how many are hidden (`--wide` shows them
// all)"). Kept here, not printed by the renderer, which returns text and has no stream.
const hidden = new Set<string>();

export function noteHiddenColumns(names: readonly string[]): void {
  for (const name of names) hidden.add(name);
}

/** The line to print (and forget), if any table of the run hid a column. */
export function takeHiddenColumnsNote(): string | undefined {
  if (hidden.size === 0) return undefined;
  const names = [...hidden];
  hidden.clear();
  const count = names.length === 1 ? '1 column' : `${names.length} columns`;
  return `note: ${count} hidden (${names.join(', ')}): --wide shows ${names.length === 1 ? 'it' : 'them'}`;
}
