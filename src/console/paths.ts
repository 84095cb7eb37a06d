/**
 * Where the partner console's pages live: every route pattern the console's routers mount, and
 * the builders of the addresses its pages link to and post to. No other module spells a console
 * path.
 */
export const CONSOLE_PREFIX = '/console';

/**
 * The pages the mailed links open. The path segment after each is a capability token (the
 * request log masks it: src/http/logged-path.ts).
 */
export const EMAIL_LINK_PREFIXES = {
  verifyEmail: `${CONSOLE_PREFIX}/verify-email`,
  resetPassword: `${CONSOLE_PREFIX}/reset-password`,
} as const;

const APP = `${CONSOLE_PREFIX}/apps/:clientId`;
const EMPLOYERS = `${CONSOLE_PREFIX}/employers`;

/** Route patterns, for the routers. */
export const CONSOLE_PATHS = {
  dashboard: CONSOLE_PREFIX,
  signIn: `${CONSOLE_PREFIX}/sign-in`,
  signUp: `${CONSOLE_PREFIX}/sign-up`,
  signOut: `${CONSOLE_PREFIX}/sign-out`,
  /** The mailed verification link (its token is a capability secret). */
  verifyEmail: `${EMAIL_LINK_PREFIXES.verifyEmail}/:token`,
  /** "Send the link again", and the page that says it was sent. */
  resendVerification: `${CONSOLE_PREFIX}/email-verification`,
  verificationSent: `${CONSOLE_PREFIX}/email-verification/sent`,
  forgotPassword: `${CONSOLE_PREFIX}/forgot-password`,
  /** The mailed reset link: the form to choose a new password. */
  resetPassword: `${EMAIL_LINK_PREFIXES.resetPassword}/:token`,
  passwordChanged: `${CONSOLE_PREFIX}/password-changed`,
  /** Mails kept when SMTP_URL is unset outside production. */
  devOutbox: `${CONSOLE_PREFIX}/dev/outbox`,
  newApp: `${CONSOLE_PREFIX}/apps/new`,
  /** The API explorer: pick an app and an employer, then GraphiQL with a token for them. */
  explorer: `${CONSOLE_PREFIX}/explorer`,
  /** One app's tabs and forms. */
  app: {
    overview: APP,
    editOverview: `${APP}/overview`,
    credentials: `${APP}/credentials`,
    rotate: `${APP}/credentials/rotate`,
    reveal: `${APP}/credentials/reveal`,
    redirectUrls: `${APP}/redirect-urls`,
    redirectUrl: `${APP}/redirect-urls/:position`,
    removeRedirectUrl: `${APP}/redirect-urls/:position/remove`,
    activity: `${APP}/activity`,
    delete: `${APP}/delete`,
    /** One API's switch in the Overview's APIs section. */
    api: `${APP}/apis/:api`,
    webhooks: `${APP}/webhooks`,
    budget: `${APP}/budget`,
    webhook: `${APP}/webhooks/:endpointId`,
    webhookRotate: `${APP}/webhooks/:endpointId/rotate`,
    webhookTest: `${APP}/webhooks/:endpointId/test`,
    webhookEnable: `${APP}/webhooks/:endpointId/enable`,
    webhookDisable: `${APP}/webhooks/:endpointId/disable`,
    webhookDelete: `${APP}/webhooks/:endpointId/delete`,
    webhookRecover: `${APP}/webhooks/:endpointId/recover`,
    webhookDelivery: `${APP}/webhooks/:endpointId/deliveries/:deliveryId`,
    webhookResend: `${APP}/webhooks/:endpointId/deliveries/:deliveryId/resend`,
    calendarMails: `${APP}/calendar-mails`,
    dispositions: `${APP}/dispositions`,
    postings: `${APP}/postings`,
  },
  employers: {
    list: EMPLOYERS,
    detail: `${EMPLOYERS}/:employerId`,
    members: `${EMPLOYERS}/:employerId/members`,
  },
} as const;

/** The pages the mailed links open, under `baseUrl` (AUTH_URL). */
export function emailLinkUrls(baseUrl: string) {
  return {
    verifyEmail: (token: string) =>
      `${baseUrl}${EMAIL_LINK_PREFIXES.verifyEmail}/${encodeURIComponent(token)}`,
    resetPassword: (token: string) => `${baseUrl}${resetPasswordPath(token)}`,
    signIn: `${baseUrl}${CONSOLE_PATHS.signIn}`,
    forgotPassword: `${baseUrl}${CONSOLE_PATHS.forgotPassword}`,
  };
}

export function resetPasswordPath(token: string): string {
  return `${EMAIL_LINK_PREFIXES.resetPassword}/${encodeURIComponent(token)}`;
}

/** The addresses of one app's tabs and forms; client ids are hex, but are encoded all the same. */
export function appPaths(clientId: string) {
  const base = `${CONSOLE_PREFIX}/apps/${encodeURIComponent(clientId)}`;
  return {
    overview: base,
    editOverview: `${base}/overview`,
    credentials: `${base}/credentials`,
    rotate: `${base}/credentials/rotate`,
    reveal: `${base}/credentials/reveal`,
    redirectUrls: `${base}/redirect-urls`,
    redirectUrl: (position: number) => `${base}/redirect-urls/${position}`,
    removeRedirectUrl: (position: number) => `${base}/redirect-urls/${position}/remove`,
    activity: `${base}/activity`,
    delete: `${base}/delete`,
    api: (name: string) => `${base}/apis/${encodeURIComponent(name)}`,
    webhooks: `${base}/webhooks`,
    budget: `${base}/budget`,
    webhook: (endpointId: string) =>
      webhookPaths(`${base}/webhooks/${encodeURIComponent(endpointId)}`),
    calendarMails: `${base}/calendar-mails`,
    dispositions: `${base}/dispositions`,
    postings: `${base}/postings`,
  };
}

/** The addresses of one webhook endpoint's page and forms, under its app's. */
function webhookPaths(detail: string) {
  return {
    detail,
    rotate: `${detail}/rotate`,
    test: `${detail}/test`,
    enable: `${detail}/enable`,
    disable: `${detail}/disable`,
    delete: `${detail}/delete`,
    recover: `${detail}/recover`,
    delivery: (deliveryId: number) => `${detail}/deliveries/${deliveryId}`,
    resend: (deliveryId: number) => `${detail}/deliveries/${deliveryId}/resend`,
  };
}

/** The addresses of one employer's pages; ids are UUIDs, but are encoded all the same. */
export function employerPaths(employerId: string) {
  const detail = `${EMPLOYERS}/${encodeURIComponent(employerId)}`;
  return { detail, members: `${detail}/members` };
}
