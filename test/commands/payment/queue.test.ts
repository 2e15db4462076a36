// issue 42 item 1 on the embedded default (in-process): pgw payment verification without an ID is
// the work queue: only open verifications, oldest deadline first (none after every dated one),
// with what is owed and the reviewer's message; --state narrows it, -o csv prints its columns, a
// state that is not open is exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run.js';

const config = tempConfigDir();
let sentBack: string;
let inReview: string;
let card: string;

const pgw = (argv: string[]) => runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
async function json<T = any>(...argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  [inReview, sentBack, card] = (await Promise.all(['900', '800', '700'].map(async (amount) => (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', amount)).payment_id as string))) as [string, string, string];
  await json('sandbox', 'verification', inReview, 'ACTION_REQUIRED');
  await json('sandbox', 'verification', inReview, 'UNDER_REVIEW');
  await json('sandbox', 'verification', sentBack, 'ACTION_REQUIRED', '--message', 'Send the invoice');
});
afterAll(() => config.cleanup());

describe('pgw payment verification: the work queue', () => {
  it('lists the open ones only, the dated first, with what is owed and the message', async () => {
    const rows = await json<any[]>('payment', 'verification');
    expect(rows.map((r) => [r.payment_id, r.settlement_status])).toEqual([
      [sentBack, 'ACTION_REQUIRED'],
      [inReview, 'UNDER_REVIEW'],
    ]);
    expect(rows[0]).toMatchObject({ amount: '800.00', outstanding: ['business_model', 'purpose_code'], message: 'Send the invoice', deadline: expect.stringMatching(/^\d{4}-/) });
    expect(rows[1].deadline).toBeNull();
    expect(rows.map((r) => r.payment_id)).not.toContain(card);
  });

  it('--state narrows it (any case); -o csv; a state that is not open is exit 2', async () => {
    const csv = await pgw(['payment', 'verification', '--state', 'under_review', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split(/\r?\n/)).toEqual([
      'payment_id,merchant_id,amount,currency,settlement_status,owed,deadline,message,order_id,purpose_code',
      expect.stringMatching(new RegExp(`^${inReview},\\d+,900\\.00,INR,UNDER_REVIEW,nothing: in review,,`)),
    ]);
    const bad = await pgw(['payment', 'verification', '--state', 'VERIFIED']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('--state: VERIFIED is not one of the open states');
  });
});
