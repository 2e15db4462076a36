// The create-order flags that mean something on a payment link (beyond 3.1's fields). Plain data:
// index.ts registers them at start-up without loading anything else.
import { ORDER_FIELD_FLAGS, type FieldFlag } from '../order/flags.js';

const LINK_PATHS = [
  'amount',
  'reference_id',
  'buyer.name',
  'buyer.email',
  'buyer.phone',
  'buyer.address.line_1',
  'buyer.address.line_2',
  'buyer.address.city',
  'buyer.address.state',
  'buyer.address.postal_code',
  'product.name',
  'product.description',
  'product.type_of_goods',
  'invoice.number',
];

export const LINK_FIELD_FLAGS: readonly FieldFlag[] = ORDER_FIELD_FLAGS.filter((f) => LINK_PATHS.includes(f.path));

