import type { Response } from 'express';
import type { EmployerMembership } from '../../accounts/account-store.js';
import { CSRF_FIELD } from '../../sessions/csrf.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { CONSENT_PATH, EMPLOYER_PATH, SIGN_IN_PATH, SIGN_OUT_PATH } from './redirects.js';
import { describeScopes } from './scope-descriptions.js';
import { pageTemplates } from '../../http/views.js';

/** Name of the hidden field that carries the client's query from page to page. */
export const REQUEST_FIELD = 'authorization_request';

interface FormContext {
  request: AuthorizationRequest;
  csrfToken: string;
}

/**
 * The HTML pages of the authorization endpoint. Templates autoescape and refuse to print an
 * undefined value, so a missing variable is a bug found in tests, not a blank on a page.
 */
export class AuthorizePages {
  constructor(private readonly forgotPasswordHref?: string) {}

  signIn(
    res: Response,
    page: FormContext & { status?: number; email?: string; error?: string },
  ): void {
    this.renderForm(res, page, page.status ?? 200, 'sign-in.njk', {
      ...this.form(page, SIGN_IN_PATH),
      email: page.email ?? '',
      error: page.error ?? null,
      forgot_password_href: this.forgotPasswordHref ?? null,
    });
  }

  /**
   * Says who is asking: the publisher details the owner gave, and when there is no developer
   * name, who registered the app (`registeredBy`, the owner's name or email).
   */
  consent(res: Response, page: FormContext & { userEmail: string; registeredBy: string }): void {
    const { app } = page.request;
    if (app.logo_url) allowImagesFrom(res, app.logo_url);
    this.renderForm(res, page, 200, 'consent.njk', {
      ...this.form(page, CONSENT_PATH),
      sign_out_action: SIGN_OUT_PATH,
      user_email: page.userEmail,
      permissions: describeScopes(page.request.scopes),
      developer_name: app.developer_name,
      registered_by: page.registeredBy,
      homepage_url: app.homepage_url,
      privacy_policy_url: app.privacy_policy_url,
      logo_url: app.logo_url,
    });
  }

  /** Each choice shows the employer's id and the user's role, so same-named ones differ. */
  selectEmployer(
    res: Response,
    page: FormContext & { employers: EmployerMembership[]; status?: number; error?: string },
  ): void {
    this.renderForm(res, page, page.status ?? 200, 'select-employer.njk', {
      ...this.form(page, EMPLOYER_PATH),
      employers: page.employers.map(({ employer, role }, index) => ({
        id: employer.id,
        name: employer.name,
        role,
        input_id: `employer-${index + 1}`,
      })),
      error: page.error ?? null,
    });
  }

  /** A page that ends the flow here: nothing is sent back to the app. */
  error(res: Response, status: number, page: { title: string; message: string }): void {
    this.render(res, status, 'error.njk', { ...page, request_id: res.req.id ?? '' });
  }

  private form(page: FormContext, action: string) {
    return {
      app_name: page.request.app.name,
      action,
      csrf_field: CSRF_FIELD,
      csrf_token: page.csrfToken,
      request_field: REQUEST_FIELD,
      authorization_request: page.request.query,
    };
  }

  /** A page with forms: their submission may end in a redirect to the client. */
  private renderForm(
    res: Response,
    page: FormContext,
    status: number,
    template: string,
    context: Record<string, unknown>,
  ): void {
    allowFormRedirectTo(res, page.request.redirectUri);
    this.render(res, status, template, context);
  }

  private render(
    res: Response,
    status: number,
    template: string,
    context: Record<string, unknown>,
  ): void {
    const html = pageTemplates.render(template, context);
    res.status(status).type('html').send(html);
  }
}

/**
 * Helmet's policy allows images from 'self' and data: only; the consent page also shows the
 * app's logo, so that image's origin, and only it, is added for that page.
 */
function allowImagesFrom(res: Response, imageUrl: string): void {
  const policy = res.getHeader('Content-Security-Policy');
  const origin = URL.canParse(imageUrl) ? new URL(imageUrl).origin : undefined;
  if (typeof policy !== 'string' || !origin || !/^https?:\/\/[A-Za-z0-9.:[\]-]+$/.test(origin)) {
    return;
  }
  res.setHeader(
    'Content-Security-Policy',
    /img-src [^;]*/.test(policy)
      ? policy.replace(/img-src [^;]*/, (directive) => `${directive} ${origin}`)
      : `${policy};img-src 'self' data: ${origin}`,
  );
}

/**
 * Helmet's policy says `form-action 'self'`, and browsers apply form-action to every redirect a
 * form submission leads to. Our forms end in a redirect to the client's registered redirect_uri,
 * so that origin, and only it, is added for the page that carries the form.
 */
function allowFormRedirectTo(res: Response, redirectUri: string): void {
  const policy = res.getHeader('Content-Security-Policy');
  const origin = URL.canParse(redirectUri) ? new URL(redirectUri).origin : undefined;
  if (typeof policy !== 'string' || !origin || !/^https?:\/\/[A-Za-z0-9.:[\]-]+$/.test(origin)) {
    return;
  }
  res.setHeader(
    'Content-Security-Policy',
    policy.replace(/form-action [^;]*/, (directive) => `${directive} ${origin}`),
  );
}
