// The S2S card flow's acs_template (spec 2.6): Base64 of an HTML form that auto-submits to the
// sandbox's own 3-D Secure page, which approves or declines and returns the buyer to return_url.
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function threeDsUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/3ds/${token}/`;
}

export function acsTemplate(baseUrl: string, token: string, orderId: string): string {
  const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>3-D Secure</title></head>
<body onload="document.forms[0].submit()">
<form method="POST" action="${escape(threeDsUrl(baseUrl, token))}">
<input type="hidden" name="order_id" value="${escape(orderId)}">
<noscript><p>Continue to 3-D Secure authentication.</p><button type="submit">Continue</button></noscript>
</form>
</body></html>
`;
  return Buffer.from(html, 'utf8').toString('base64');
}

/** The UPI intent parameter string of an S2S intent order (spec 2.6). */
export function upiIntentUri(p: { merchantId: string; merchantName: string; orderId: string; referenceId: string; amount: string; currency: string }): string {
  const q = new URLSearchParams({
    pa: `m${p.merchantId}@simulator`,
    pn: p.merchantName,
    tr: p.orderId,
    tn: `Order ${p.referenceId}`,
    am: p.amount,
    cu: p.currency,
  });
  return `upi://pay?${q.toString().replace(/\+/g, '%20')}`;
}
