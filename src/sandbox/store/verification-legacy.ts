// The deprecated upload-verification-details (vendor 11.2.5; 11.10 P8), kept working on top of
// payment verification (verification.ts): its fixed fields mapped onto the checklist codes.
import { SandboxError, paymentNotFound } from '../errors.js';
import { BUSINESS_MODELS } from './checklists.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { paymentById } from './payments.js';
import { ACCEPTING_STATES, ensureVerification, purposeCodesOf, standing, type Held } from './verification.js';

/** vendor 11.2.4: the values the older endpoint verifies with in sandbox. */
export const LEGACY_TEST_VALUES: Record<string, string> = {
  buyer_name: 'John',
  buyer_postal_code: '560034',
  product_description: 'This is a test product for test purpose.',
};
const LEGACY_TYPES = ['GOODS', 'PHYSICAL_GOODS', 'DIGITAL_GOODS', 'SERVICE'];
const legacyInvalid = (details: Record<string, string>) => new SandboxError(400, 'ERR_VERIFICATION_002', 'Validation error', details);

/**
 * POST /pg/payments/{uid}/upload-verification-details/ (vendor 11.2.5, deprecated; 11.10 P8): the
 * fixed field set, checked as documented (400 per field, the sandbox's own code; 404 for an
 * unknown payment), mapped onto the checklist codes (buyer_address → buyer_address_line_1;
 * type_of_goods and hs_code kept on the order only) and staged. With the vendor's three test
 * values the payment is VERIFIED (the older flow's sandbox pass); otherwise it stays
 * ACTION_REQUIRED and the test-value fields that differ are its missing_documents.
 */
export function uploadVerificationDetails(core: Core, scope: Scope, paymentId: string, body: Record<string, unknown>): Record<string, unknown> {
  return core.db.write(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw paymentNotFound(paymentId);
    const problems: Record<string, string> = {};
    const text = (k: string, max: number, required: boolean): string | undefined => {
      const v = body?.[k];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
        if (required) problems[k] = 'This field is required.';
        return undefined;
      }
      if (typeof v !== 'string') return void (problems[k] = 'Not a valid string.'), undefined;
      if (v.length > max) return void (problems[k] = `Ensure this field has no more than ${max} characters.`), undefined;
      return v.trim();
    };
    const values = {
      buyer_name: text('buyer_name', 255, true),
      type_of_goods: text('type_of_goods', 50, true),
      product_description: text('product_description', 10_000, true),
      buyer_address: text('buyer_address', 10_000, true),
      invoice_number: text('invoice_number', 255, true),
      buyer_postal_code: text('buyer_postal_code', 10, true),
      hs_code: text('hs_code', 30, false),
      purpose_code: text('purpose_code', 255, false),
      business_model: text('business_model', 10, false),
    };
    if (values.type_of_goods !== undefined && !LEGACY_TYPES.includes(values.type_of_goods.toUpperCase())) problems.type_of_goods = `"${values.type_of_goods}" is not a valid choice.`;
    if (values.type_of_goods?.toUpperCase() !== 'SERVICE' && values.hs_code === undefined && !problems.type_of_goods && values.type_of_goods !== undefined) problems.hs_code = 'This field is required unless type_of_goods is SERVICE.';
    if (values.purpose_code !== undefined && !purposeCodesOf(core, p.merchant_id).includes(values.purpose_code.toUpperCase())) problems.purpose_code = `Purpose code ${values.purpose_code} is not enabled for this merchant.`;
    if (values.business_model !== undefined && !(BUSINESS_MODELS as readonly string[]).includes(values.business_model.toUpperCase())) problems.business_model = '"' + values.business_model + '" is not a valid choice.';
    if (Object.keys(problems).length) throw legacyInvalid(problems);
    const s = standing(core, scope, paymentId);
    if (!ACCEPTING_STATES.has(s.state)) throw legacyInvalid({ payment_id: `${paymentId} is ${s.state}: this payment does not take verification details` });
    const at = nowStamp(core, p.merchant_id);
    // vendor 11.2.5: sending business_model declares it (the stored default is B2C); omitting purpose_code keeps the earlier one.
    const bm = values.business_model?.toUpperCase() ?? s.order.business_model ?? 'B2C';
    const pc = values.purpose_code?.toUpperCase() ?? s.order.purpose_code ?? null;
    if (pc !== null) core.db.run('UPDATE orders SET business_model = ?, purpose_code = ?, updated_at = ? WHERE order_id = ?', bm, pc, at, s.order.order_id);
    const product = parseJson<Record<string, unknown>>(s.order.product) ?? {};
    product.description = values.product_description;
    product.type_of_goods = values.type_of_goods!.toLowerCase();
    if (values.hs_code !== undefined) product.hs_code = values.hs_code;
    core.db.run('UPDATE orders SET product = ? WHERE order_id = ?', JSON.stringify(product), s.order.order_id);
    ensureVerification(core, p, at, null);
    const staged = { ...(parseJson<Held>(s.v?.fields) ?? {}), buyer_name: values.buyer_name!, buyer_address_line_1: values.buyer_address!, buyer_postal_code: values.buyer_postal_code!, invoice_number: values.invoice_number! };
    core.db.run('UPDATE verifications SET fields = ?, updated_at = ? WHERE payment_id = ?', JSON.stringify(staged), at, paymentId);
    const entry = (name: string, status: string) => ({ doc_name: name, doc_type: 'VALUE', doc_status: status, remarks: null, added_on: at, last_updated_on: at });
    const differ = Object.entries(LEGACY_TEST_VALUES).filter(([k, v]) => (values as Record<string, string | undefined>)[k] !== v).map(([k]) => k);
    if (differ.length === 0) core.db.run("UPDATE payments SET settlement_status = 'VERIFIED' WHERE payment_id = ?", paymentId);
    const sent = ['buyer_name', 'product_description', 'buyer_address', 'invoice_number', 'buyer_postal_code', ...(values.hs_code ? ['hs_code'] : [])];
    return {
      uploaded_documents: sent.filter((k) => !differ.includes(k)).map((k) => entry(k, 'VERIFIED')),
      missing_documents: differ.map((k) => entry(k, 'PENDING')),
      errors: [],
    };
  });
}
