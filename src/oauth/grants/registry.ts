import { OAuthError } from '../oauth-error.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { Grant } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';

/** The grants this server implements, in the order they are advertised, shown and stored. */
export const BUILT_IN_GRANTS: readonly Grant[] = [
  authorizationCodeGrant,
  refreshTokenGrant,
  clientCredentialsGrant,
];

/** How the console offers one grant on an app's forms. */
export interface GrantChoice {
  name: string;
  label: string;
  description: string;
  publicClients: boolean;
}

/**
 * The one list of grant types: the token endpoint dispatches on it, discovery advertises it,
 * apps store choices from it and the console offers it. Built once by the composition root.
 */
export class GrantRegistry {
  private readonly byName = new Map<string, Grant>();

  constructor(grants: readonly Grant[] = BUILT_IN_GRANTS) {
    if (!grants.length) throw new Error('a grant registry needs at least one grant');
    for (const grant of grants) {
      if (!/^[\x21-\x7e]+$/.test(grant.name)) {
        throw new Error(`grant type ${JSON.stringify(grant.name)} is not a valid grant_type`);
      }
      if (this.byName.has(grant.name))
        throw new Error(`grant type ${grant.name} is registered twice`);
      this.byName.set(grant.name, grant);
    }
  }

  /** The grant types' names, in order. */
  get names(): readonly string[] {
    return [...this.byName.keys()];
  }

  /** The grant of this name; undefined for any other string. */
  find(name: string): Grant | undefined {
    return this.byName.get(name);
  }

  /** The token endpoint's answer to a grant_type it does not know. */
  unsupported(name: string): OAuthError {
    return new OAuthError(
      'unsupported_grant_type',
      `grant_type ${JSON.stringify(name)} is not supported; use ${listed(this.names)}`,
    );
  }

  /** The console's choices, in order. */
  choices(): GrantChoice[] {
    return [...this.byName.values()].map(({ name, label, description, publicClients }) => ({
      name,
      label,
      description,
      publicClients,
    }));
  }
}

/** "a, b or c". */
function listed(names: readonly string[]): string {
  const last = names.at(-1) ?? '';
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${last}` : last;
}
