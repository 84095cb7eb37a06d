import type { Response } from 'express';
import type { AppWithRedirectUris } from '../accounts/app-store.js';
import { MAX_REDIRECT_URIS } from '../accounts/redirect-uris.js';
import type { AppRow } from '../db/rows.js';
import { API_REFERENCE_PATHS } from '../http/api-reference.js';
import type { FieldProblem } from '../errors.js';
import { MIN_PASSWORD_LENGTH } from '../security/passwords.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import type { GrantChoice } from '../oauth/grants/registry.js';
import { appTabs, grantChoices } from './app-tabs.js';
import { pendingNotice } from './notices.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';
import { pageTemplates } from '../http/views.js';

/** Who is looking at a page: null before sign-in. */
export interface Viewer {
  email: string;
  /** Until it is, every page offers to send the verification link again. */
  emailVerified: boolean;
  csrfToken: string;
}

export interface NewAppValues {
  name: string;
  clientType: 'confidential' | 'public';
  redirectUris: string[];
  description: string;
  grantTypes: readonly string[];
}

/** What a page says went wrong, and which input it is about. */
export interface FormProblem {
  message: string;
  field?: string;
}

/**
 * The partner console's pages. Templates autoescape and refuse to print an undefined value, as
 * the authorization pages do; every form carries its CSRF token.
 */
export class ConsolePages {
  /** `grants`: the grant registry's choices, offered on the new-app form. */
  constructor(private readonly grants: readonly GrantChoice[]) {}

  signIn(
    res: Response,
    page: {
      csrfToken: string;
      signUpOpen: boolean;
      status?: number;
      email?: string;
      error?: string;
    },
  ): void {
    this.render(res, page.status ?? 200, 'console-sign-in.njk', null, {
      action: CONSOLE_PATHS.signIn,
      sign_up_href: page.signUpOpen ? CONSOLE_PATHS.signUp : null,
      forgot_password_href: CONSOLE_PATHS.forgotPassword,
      csrf_token: page.csrfToken,
      email: page.email ?? '',
      error: page.error ?? null,
    });
  }

  signUp(
    res: Response,
    page: {
      csrfToken: string;
      status?: number;
      email?: string;
      name?: string;
      problems?: readonly FieldProblem[];
    },
  ): void {
    const problems = page.problems ?? [];
    const invalid = (field: string) => problems.some((problem) => problem.field === field);
    this.render(res, page.status ?? 200, 'console-sign-up.njk', null, {
      action: CONSOLE_PATHS.signUp,
      sign_in_href: CONSOLE_PATHS.signIn,
      csrf_token: page.csrfToken,
      email: page.email ?? '',
      name: page.name ?? '',
      min_password_length: MIN_PASSWORD_LENGTH,
      problems: problems.map((problem) => ({ field: problem.field, message: problem.message })),
      invalid: { email: invalid('email'), password: invalid('password'), name: invalid('name') },
    });
  }

  dashboard(res: Response, viewer: Viewer, apps: AppWithRedirectUris[]): void {
    this.render(res, 200, 'console-dashboard.njk', viewer, {
      new_app_href: CONSOLE_PATHS.newApp,
      apps: apps.map((app) => ({
        name: app.name,
        client_id: app.client_id,
        client_type: clientTypeLabel(app),
        redirect_count: app.redirect_uris.length,
        href: appPaths(app.client_id).credentials,
      })),
    });
  }

  newApp(
    res: Response,
    viewer: Viewer,
    page: { values: NewAppValues; status?: number; problem?: FormProblem },
  ): void {
    const slots = Math.max(MAX_REDIRECT_URIS, page.values.redirectUris.length);
    const redirects = Array.from({ length: slots }, (_, index) => ({
      input_id: `redirect-uri-${index + 1}`,
      name: `redirect_uri_${index + 1}`,
      label: `Redirect URL ${index + 1}`,
      value: page.values.redirectUris[index] ?? '',
    }));
    this.render(res, page.status ?? 200, 'console-app-new.njk', viewer, {
      action: CONSOLE_PATHS.newApp,
      cancel_href: CONSOLE_PATHS.dashboard,
      name: page.values.name,
      description: page.values.description,
      grant_choices: grantChoices(this.grants, page.values.grantTypes),
      client_type: page.values.clientType,
      redirects,
      max_redirects: MAX_REDIRECT_URIS,
      ...problemContext(page.problem),
    });
  }

  /** The Credentials tab; `secret` only on the one view right after creation or rotation. */
  credentials(
    res: Response,
    viewer: Viewer,
    page: { app: AppRow; secret: string | undefined; status?: number; error?: string },
  ): void {
    const { app } = page;
    // A page that may carry a secret is never stored by the browser or a proxy.
    res.setHeader('Cache-Control', 'no-store');
    this.render(res, page.status ?? 200, 'console-app-credentials.njk', viewer, {
      app_name: app.name,
      dashboard_href: CONSOLE_PATHS.dashboard,
      client_id: app.client_id,
      client_type: clientTypeLabel(app),
      confidential: app.client_type === 'confidential',
      secret: page.secret ?? null,
      secret_updated_at: app.secret_updated_at ? isoMinute(app.secret_updated_at) : null,
      credentials_href: appPaths(app.client_id).credentials,
      tabs: appTabs(app.client_id, 'credentials'),
      rotate_href: appPaths(app.client_id).rotate,
      reveal_action: appPaths(app.client_id).reveal,
      error: page.error ?? null,
    });
  }

  /** What rotating the secret does, with Confirm (a form) and Cancel. */
  confirmRotation(res: Response, viewer: Viewer, app: AppRow): void {
    this.render(res, 200, 'console-app-rotate.njk', viewer, {
      app_name: app.name,
      dashboard_href: CONSOLE_PATHS.dashboard,
      tabs: appTabs(app.client_id, null),
      action: appPaths(app.client_id).rotate,
      cancel_href: appPaths(app.client_id).credentials,
    });
  }

  /** A page that only explains something: not found, expired form, closed sign-up, failure. */
  message(
    res: Response,
    status: number,
    viewer: Viewer | null,
    page: { title: string; message: string },
  ): void {
    this.render(res, status, 'console-message.njk', viewer, {
      heading: page.title,
      message: page.message,
      home_href: viewer ? CONSOLE_PATHS.dashboard : CONSOLE_PATHS.signIn,
      request_id: res.req.id ?? '',
    });
  }

  private render(
    res: Response,
    status: number,
    template: string,
    viewer: Viewer | null,
    context: Record<string, unknown>,
  ): void {
    renderConsolePage(res, status, template, viewer, context);
  }
}

/** Renders a console page inside its frame: who is signed in, sign-out form, CSRF token. */
export function renderConsolePage(
  res: Response,
  status: number,
  template: string,
  viewer: Viewer | null,
  context: Record<string, unknown>,
): void {
  const html = pageTemplates.render(template, {
    csrf_field: CSRF_FIELD,
    csrf_token: viewer?.csrfToken ?? '',
    user_email: viewer?.email ?? null,
    verify_notice: viewer ? !viewer.emailVerified : false,
    resend_verification_action: CONSOLE_PATHS.resendVerification,
    sign_out_action: CONSOLE_PATHS.signOut,
    home_href: CONSOLE_PATHS.dashboard,
    nav_apps_href: CONSOLE_PATHS.dashboard,
    nav_employers_href: CONSOLE_PATHS.employers.list,
    nav_explorer_href: CONSOLE_PATHS.explorer,
    nav_reference_href: API_REFERENCE_PATHS.page,
    success_notice: pendingNotice(res, status),
    ...context,
  });
  res.status(status).type('html').send(html);
}

/** The error summary of a form that was refused, for the templates' error fields. */
export function problemContext(problem: FormProblem | undefined) {
  return { error: problem?.message ?? null, error_field: problem?.field ?? null };
}

function clientTypeLabel(app: Pick<AppRow, 'client_type'>): string {
  return app.client_type === 'confidential' ? 'Confidential (server-side)' : 'Public (no secret)';
}

/** `2025-01-31 14:05 UTC`: unambiguous without knowing the viewer's time zone. */
function isoMinute(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
