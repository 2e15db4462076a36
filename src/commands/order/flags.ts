// The create-order flags and the body field each one sets (spec 2.1-2.4). Plain data, no imports:
// index.ts registers them at start-up, body.ts applies them, so the two can never disagree.
// Card details have no flags on purpose: argv is visible in `ps` and lands in shell history.

export interface FieldFlag {
  /** commander spelling, e.g. `--buyer-name <name>`. */
  flag: string;
  /** The option key commander derives from it (camelCase). */
  key: string;
  /** Dotted path in the create-order body. */
  path: string;
  description: string;
}

export const ORDER_FIELD_FLAGS: readonly FieldFlag[] = [
  { flag: '--amount <amount>', key: 'amount', path: 'amount', description: 'amount in rupees; 1500 is sent as "1500.00"' },
  { flag: '--currency <code>', key: 'currency', path: 'currency', description: 'currency (INR)' },
  { flag: '--reference-id <id>', key: 'referenceId', path: 'reference_id', description: 'your reference, unique while the order is active (1-50 chars)' },
  { flag: '--return-url <url>', key: 'returnUrl', path: 'return_url', description: 'where the buyer returns after paying or 3-D Secure' },
  { flag: '--mode <mode>', key: 'mode', path: 'collection_mode', description: 'how it is collected (default hosted_payment)' },
  { flag: '--mop <method>', key: 'mop', path: 'mop_type', description: 'upi, credit_card, debit_card, net_banking, qr (either case: sent in the API version\'s case)' },
  { flag: '--upi-flow <flow>', key: 'upiFlow', path: 'upi_flow_type', description: 'the S2S UPI flow' },
  { flag: '--vpa <vpa>', key: 'vpa', path: 'vpa', description: "buyer's UPI address for collection (API 1.x/2.x only)" },
  { flag: '--upi-app <name>', key: 'upiApp', path: 'upi_app_name', description: 'UPI app name (API 1.x/2.x only; default others)' },
  { flag: '--buyer-name <name>', key: 'buyerName', path: 'buyer.name', description: "buyer's name" },
  { flag: '--buyer-email <email>', key: 'buyerEmail', path: 'buyer.email', description: "buyer's email" },
  { flag: '--buyer-phone <phone>', key: 'buyerPhone', path: 'buyer.phone', description: "buyer's phone with country code, e.g. +919876543210" },
  { flag: '--buyer-ip <address>', key: 'buyerIp', path: 'buyer.ip_address', description: "buyer's IP address (expected for card payments)" },
  { flag: '--buyer-user-agent <ua>', key: 'buyerUserAgent', path: 'buyer.user_agent', description: "buyer's browser user agent (expected for card payments)" },
  { flag: '--address-line1 <text>', key: 'addressLine1', path: 'buyer.address.line_1', description: 'address line 1' },
  { flag: '--address-line2 <text>', key: 'addressLine2', path: 'buyer.address.line_2', description: 'address line 2' },
  { flag: '--city <city>', key: 'city', path: 'buyer.address.city', description: 'city' },
  { flag: '--state <state>', key: 'state', path: 'buyer.address.state', description: 'state' },
  { flag: '--postal-code <code>', key: 'postalCode', path: 'buyer.address.postal_code', description: 'postal code (6 characters)' },
  { flag: '--product-name <name>', key: 'productName', path: 'product.name', description: 'product name' },
  { flag: '--product-description <text>', key: 'productDescription', path: 'product.description', description: 'product description' },
  { flag: '--goods <type>', key: 'goods', path: 'product.type_of_goods', description: 'digital_goods, physical_goods or service' },
  { flag: '--hs-code <code>', key: 'hsCode', path: 'product.hs_code', description: 'HS code, up to 8 digits (required for physical goods)' },
  { flag: '--hs-code-description <text>', key: 'hsCodeDescription', path: 'product.hs_code_description', description: 'HS code description' },
  { flag: '--invoice-number <number>', key: 'invoiceNumber', path: 'invoice.number', description: 'invoice number' },
  { flag: '--invoice-date <date>', key: 'invoiceDate', path: 'invoice.date', description: 'invoice date, YYYY-MM-DD' },
];
