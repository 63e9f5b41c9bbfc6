/** One look for every e-mail we send: HTML that reads at 360 px and without images, and a plain-text part. */
export interface EmailContent {
  subject: string;
  /** The line mail clients show beside the subject. */
  preheader: string;
  heading: string;
  paragraphs: string[];
  /** The main action; its address is also printed as text, for clients that do not show buttons. */
  action?: { label: string; url: string };
  /** A large, spaced line (a verification code). */
  highlight?: string;
  footnote?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export function renderEmail(c: EmailContent): { subject: string; text: string; html: string } {
  const text = [
    c.heading,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.highlight ? [c.highlight, ''] : []),
    ...(c.action ? [`${c.action.label}: ${c.action.url}`, ''] : []),
    ...(c.footnote ? [c.footnote, ''] : []),
    '— GiftLens',
  ].join('\n');

  const p = (body: string, style = '') =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1c1917;${style}">${body}</p>`;
  const action = c.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 16px"><tr>` +
      `<td bgcolor="#e8432a" style="border-radius:12px"><a href="${escapeHtml(c.action.url)}" ` +
      `style="display:inline-block;padding:14px 24px;${FONT};font-size:16px;font-weight:bold;color:#ffffff;` +
      `text-decoration:none;border-radius:12px">${escapeHtml(c.action.label)}</a></td></tr></table>` +
      p(
        `Or open this link: <a href="${escapeHtml(c.action.url)}" style="color:#c2341f;word-break:break-all">${escapeHtml(c.action.url)}</a>`,
        'font-size:14px;line-height:20px;color:#57534e',
      )
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:0;background:#fafaf9">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(c.preheader)}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#fafaf9">
<tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:560px;background:#ffffff;border:1px solid #e7e5e4;border-radius:16px">
<tr><td style="padding:24px 20px;${FONT}">
<p style="margin:0 0 20px;font-size:18px;font-weight:bold;color:#e8432a">GiftLens</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:28px;color:#1c1917">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map((x) => p(escapeHtml(x))).join('\n')}
${c.highlight ? `<p style="margin:8px 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;color:#1c1917">${escapeHtml(c.highlight)}</p>` : ''}
${action}
${c.footnote ? p(escapeHtml(c.footnote), 'font-size:13px;line-height:18px;color:#78716c') : ''}
</td></tr></table>
</td></tr></table>
</body></html>`;
  return { subject: c.subject, text, html };
}
