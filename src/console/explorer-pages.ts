import type { Response } from 'express';
import type { AppWithRedirectUris } from '../accounts/app-store.js';
import type { EmployerMembership } from '../accounts/account-store.js';
import { API_REFERENCE_PATHS } from '../http/api-reference.js';
import { builtAssetHref } from '../http/built-assets.js';
import type { ExplorerToken } from '../oauth/tokens/explorer-tokens.js';
import { problemContext, renderConsolePage, type FormProblem, type Viewer } from './pages.js';
import { CONSOLE_PATHS } from './paths.js';

/** What the partner picked on the explorer's form. */
export interface ExplorerChoice {
  clientId: string;
  employerId: string;
}

interface Choices {
  apps: AppWithRedirectUris[];
  employers: EmployerMembership[];
}

/**
 * The API explorer's pages: the form that picks an app and an employer, and GraphiQL over the
 * Interview API with the token issued for them. GraphiQL is a bundle `npm run build` makes; the
 * page explains how to build it when it is missing.
 */
export class ExplorerPages {
  constructor(
    /** The Interview API's address as partners' apps call it, shown beside the explorer. */
    private readonly apiEndpoint: string,
  ) {}

  picker(
    res: Response,
    viewer: Viewer,
    page: Choices & { chosen?: ExplorerChoice; status?: number; problem?: FormProblem },
  ): void {
    renderConsolePage(res, page.status ?? 200, 'console-explorer.njk', viewer, {
      ...this.pickerContext(page, page.chosen),
      token: null,
      explorer_styles: null,
      ...problemContext(page.problem),
    });
  }

  explorer(
    res: Response,
    viewer: Viewer,
    page: Choices & { chosen: ExplorerChoice; token: ExplorerToken },
  ): void {
    const script = builtAssetHref('explorer.js');
    const styles = builtAssetHref('explorer.css');
    renderConsolePage(res, 200, 'console-explorer.njk', viewer, {
      ...this.pickerContext(page, page.chosen),
      token: page.token.accessToken,
      expires_at: `${new Date(page.token.expiresAt).toISOString().slice(11, 16)} UTC`,
      explorer_script: script && styles ? script : null,
      explorer_styles: script && styles ? styles : null,
      graphql_path: '/graphql',
      ...problemContext(undefined),
    });
  }

  private pickerContext(choices: Choices, chosen: ExplorerChoice | undefined) {
    return {
      action: CONSOLE_PATHS.explorer,
      api_endpoint: this.apiEndpoint,
      graphql_reference_href: API_REFERENCE_PATHS.graphql,
      new_app_href: CONSOLE_PATHS.newApp,
      employers_href: CONSOLE_PATHS.employers.list,
      apps: choices.apps.map((app) => ({
        name: app.name,
        client_id: app.client_id,
        selected: app.client_id === chosen?.clientId,
      })),
      employers: choices.employers.map(({ employer }) => ({
        name: employer.name,
        id: employer.id,
        selected: employer.id === chosen?.employerId,
      })),
    };
  }
}
