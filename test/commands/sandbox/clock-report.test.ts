// The clock's report names what each expired verification's refund gave back: the payment's
// amount alone read as if it had all been refunded when part of it already had been.
import { describe, expect, it } from 'vitest';
import { renderCaused, type ClockCaused } from '../../../src/commands/sandbox/clock-report.js';

function caused(expired: ClockCaused['verifications_expired']): ClockCaused {
  const refunds = expired.filter((v) => v.refund_id).map((v) => ({ refund_id: v.refund_id!, payment_id: v.payment_id, amount: v.refund_amount!, reason: 'verification expired' }));
  return {
    deliveries: { attempted: 0, delivered: 0, failed: 0 },
    events_failed: [],
    events_sent: [],
    links_expired: [],
    verifications_expired: expired,
    refunds,
    refunded_total: '0.00',
    subscription_payments: [],
  };
}

describe('renderCaused: verifications expired', () => {
  it('a payment refunded in full says so', () => {
    const out = renderCaused(caused([{ payment_id: 'PR1000000001', amount: '1500.00', refund_id: 'RF1000000001', refund_amount: '1500.00' }]));
    expect(out).toContain('PR1000000001 1500.00, refunded in full by RF1000000001');
  });

  it('a payment already partly refunded names the refund\'s own amount', () => {
    const out = renderCaused(caused([{ payment_id: 'PR1000000002', amount: '2500.50', refund_id: 'RF1000000002', refund_amount: '2400.50' }]));
    expect(out).toContain('PR1000000002 2500.50, 2400.50 refunded by RF1000000002');
    expect(out).not.toContain('refunded in full');
  });

  it('a payment with nothing left to refund says that no refund was made', () => {
    const out = renderCaused(caused([{ payment_id: 'PR1000000003', amount: '10.00', refund_id: null, refund_amount: null }]));
    expect(out).toContain('PR1000000003 10.00, nothing left to refund');
  });
});
