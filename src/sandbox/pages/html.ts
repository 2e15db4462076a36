// Minimal server-rendered HTML for the buyer's side of the sandbox. Everything interpolated is
// escaped: order data is merchant input.

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;color:#1d2330}
main{max-width:28rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.2rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:600;margin:.5rem 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}dt{color:#667}dd{margin:0}
.actions{display:flex;gap:.75rem}button{flex:1;font-size:1rem;padding:.7rem;border:0;border-radius:6px;cursor:pointer}
.pay{background:#1a7f37;color:#fff}.fail{background:#cf222e;color:#fff}.note{color:#667;font-size:.85rem;margin-top:1rem}
.banner{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.4rem .6rem;font-size:.8rem;margin-bottom:1rem}
label{display:block;margin-bottom:1rem}select{font-size:1rem;padding:.3rem}`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><div class="banner">pgw sandbox: no real money moves</div>${body}</main></body></html>`;
}

export function detailList(rows: [string, unknown][]): string {
  return `<dl>${rows
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('')}</dl>`;
}

/** Pay and Fail buttons posting `outcome` to the same action; optional hidden fields. */
export function payButtons(action: string, hidden: Record<string, string> = {}, labels = { pay: 'Pay', fail: 'Fail' }): string {
  const fields = Object.entries(hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return `<form method="post" action="${escapeHtml(action)}">${fields}<div class="actions">
<button class="pay" type="submit" name="outcome" value="success">${escapeHtml(labels.pay)}</button>
<button class="fail" type="submit" name="outcome" value="fail">${escapeHtml(labels.fail)}</button></div></form>`;
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
