// How a verb's data is printed: decided once from the global flags (context.ts), read by every renderer.
export interface OutputOptions {
  /** csv: the list and recon commands only (CSV_COMMANDS in program.ts). */
  format: 'table' | 'json' | 'csv';
  query?: string;
}
