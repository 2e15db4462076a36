// How a verb's data is printed: decided once from the global flags (context.ts), read by every renderer.
export interface OutputOptions {
  format: 'table' | 'json';
  query?: string;
}
