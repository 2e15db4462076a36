// What `payment list` filters itself (issue 33 item 5), beside what it asks the gateway to filter.
// - `--reference-id 'INV-7781*'`: a trailing `*` matches every reference starting with INV-7781
//   (any case: people type references from tickets), so two charges under near references
//   (INV-7781-1, INV-7781-2) show together. vendor 3.1's reference_id filter is an exact one, so a
//   prefix is not sent: every page of the other filters' results is read and filtered here.
// - `--invoice-number`: vendor 3.1 lists no invoice_number filter, though every entry carries
//   invoice_number. It is sent (pgw's sandbox honours it, docs/sandbox.md) AND checked here on
//   every page, since a real gateway may ignore a filter it does not know.
import { UsageError } from '../../errors.js';

export interface LocalFilter {
  /** The reference's start (the `*` dropped), when --reference-id ends with one. */
  prefix?: string;
  invoiceNumber?: string;
  /** The flags that asked for it, for messages. */
  flags: string;
  matches(entry: { reference_id?: string | null; invoice_number?: string | null }): boolean;
}

/** undefined when the gateway does all the filtering (an exact reference, no invoice number). */
export function localFilter(reference: string | undefined, invoiceNumber: string | undefined): LocalFilter | undefined {
  let prefix: string | undefined;
  if (reference !== undefined && reference.includes('*')) {
    if (reference.indexOf('*') !== reference.length - 1) {
      throw new UsageError(`--reference-id: "${reference}": only a trailing * is understood (INV-7781* matches every reference starting with INV-7781)`);
    }
    prefix = reference.slice(0, -1);
    if (prefix === '') throw new UsageError('--reference-id: "*" alone matches everything: leave --reference-id out instead');
  }
  if (prefix === undefined && invoiceNumber === undefined) return undefined;
  const flags = [prefix !== undefined ? '--reference-id with *' : undefined, invoiceNumber !== undefined ? '--invoice-number' : undefined].filter((v) => v).join(' and ');
  const start = prefix?.toLowerCase();
  return {
    prefix,
    invoiceNumber,
    flags,
    matches: (e) =>
      (start === undefined || (typeof e.reference_id === 'string' && e.reference_id.toLowerCase().startsWith(start))) &&
      (invoiceNumber === undefined || e.invoice_number === invoiceNumber),
  };
}
