// How a verb's data is printed: decided once from the global flags (context.ts), read by every renderer.
export interface OutputOptions {
  /** csv: the list and recon commands only (CSV_COMMANDS in program.ts). */
  format: 'table' | 'json' | 'csv';
  query?: string;
  /** --csv-raw: CSV cells as given, no `'` before what a spreadsheet would run (csv.ts). */
  csvRaw?: boolean;
}
