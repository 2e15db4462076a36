// What follows a sub-merchant's create (issue 42 item 4), for one merchant (create.ts) and for a
// file (bulk-report.ts): a sub-merchant is created PENDING and takes payments only once its KYC
// is APPROVED (vendor 7.4). The sandbox's approval is the person's to do, one sub-merchant at a
// time; on production the gateway reviews, so the step is to read them back.

/** The lines to log after `ids` were created; `accountFlags` make the command act on the same account. */
export function afterCreated(ids: string[], production: boolean, accountFlags: string[] = []): string | undefined {
  if (ids.length === 0) return undefined;
  const pgw = ['pgw', ...accountFlags].join(' ');
  const one = ids.length === 1;
  if (production) {
    // A handful are read back by ID; more are one list (its table has the KYC status).
    const readBack = ids.length <= 5 ? `merchant get ${ids.join(' ')}` : 'merchant list --all';
    return `created PENDING: the gateway reviews ${one ? 'its' : 'their'} KYC (MERCHANT_APPROVED says when):\nnext: ${pgw} ${readBack}`;
  }
  const whose = one ? 'its KYC is yours to do' : 'KYC is yours to do, one sub-merchant at a time';
  return `created PENDING; on the sandbox, approving ${whose} (MERCHANT_APPROVED follows):\nnext: ${pgw} sandbox merchant kyc ${ids[0]} APPROVED`;
}
