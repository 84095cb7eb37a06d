import type { Mail } from '../mail/mailer.js';

export interface DisabledEndpointNotice {
  appName: string;
  endpointUrl: string;
  /** The endpoint's disabled_reason, as the console shows it. */
  reason: string;
  /** Where the owner re-enables it. */
  consoleUrl: string;
}

/** The mail to an app's owner whose webhook endpoint the service disabled. */
export function disabledEndpointMail(to: string, notice: DisabledEndpointNotice): Mail {
  const paragraphs = [
    `The service stopped sending webhooks of your app "${notice.appName}" to ${notice.endpointUrl}.`,
    notice.reason,
    'Deliveries that failed can be sent again: once the endpoint answers, enable it on the ' +
      "app's Webhooks tab and recover its failed deliveries:",
  ];
  const signature = '— Hiring partner';
  return {
    to,
    subject: `Webhook endpoint disabled: ${notice.appName}`,
    text: [...paragraphs, notice.consoleUrl, signature].join('\n\n'),
    html: [
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      `<p><a href="${escapeHtml(notice.consoleUrl)}">${escapeHtml(notice.consoleUrl)}</a></p>`,
      `<p>${escapeHtml(signature)}</p>`,
    ].join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
