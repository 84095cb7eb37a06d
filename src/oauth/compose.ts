import type { Router } from 'express';
import type { Accounts } from '../accounts/compose.js';
import type { RealtimeBus } from '../realtime/compose.js';
import { sandboxRefusal } from '../deployment/cli-deployment.js';
import type { PostEndpoint } from '../http/endpoint.js';
import type { RecordedDeployment } from '../deployment/deployment-settings.js';
import type { Sessions } from '../sessions/compose.js';
import { createRateLimiter, type SharedDependencies } from '../shared-dependencies.js';
import { AccountInfoService } from './account-info/account-info-service.js';
import { accountInfoRouter } from './account-info/router.js';
import { AuthorizationCodeStore } from './authorization-code-store.js';
import { AuthorizationCodes } from './authorization-codes.js';
import { AuthorizationFlow } from './authorize/authorization-flow.js';
import { ConsentStore } from './authorize/consent-store.js';
import { authorizeRouter } from './authorize/router.js';
import { ClientAuthenticator } from './clients/client-authenticator.js';
import { discoveryRouter } from './discovery/router.js';
import type { Grant } from './grants/grant.js';
import { BUILT_IN_GRANTS, GrantRegistry } from './grants/registry.js';
import { TokenIssuer } from './grants/token-issuer.js';
import { SigningKeyStore } from './signing-keys/signing-key-store.js';
import { SigningKeys } from './signing-keys/signing-keys.js';
import { TokenIntrospection } from './token/introspection.js';
import { TokenRevocation } from './token/revocation.js';
import { tokenEndpoints, tokenRouter } from './token/router.js';
import { AccessTokenVerifier } from './tokens/access-token-verifier.js';
import { ExplorerTokens } from './tokens/explorer-tokens.js';
import { RevocationNotices } from './tokens/revocation-notices.js';
import { SandboxTokens } from './tokens/sandbox-tokens.js';
import { TokenSigner } from './tokens/token-signer.js';
import { TokenStore } from './tokens/token-store.js';

/** The authorization server, as the rest of the service may use it. */
export interface OAuth {
  /**
   * The token signing keys. `ensureActiveKeys()` must have run (after migrations) before the
   * first token is signed or verified; the CLI rotates and lists them.
   */
  signingKeys: SigningKeys;
  /** Verifies bearer access tokens: the GraphQL gateway's authenticator. */
  verifier: AccessTokenVerifier;
  /** The grant types of the token endpoint, as discovery advertises and the console offers them. */
  grants: GrantRegistry;
  /** Short-lived employer tokens the partner console issues for its API explorer. */
  explorerTokens: ExplorerTokens;
  /** Token sets for partners' automated tests, as if a user had consented (`cli token issue`). */
  sandboxTokens: SandboxTokens;
  /**
   * Discovery and JWKS, the token, revocation and introspection endpoints, userinfo and appinfo,
   * and the authorization endpoint with its pages, in the order they are mounted.
   */
  routers(): Router[];
  /** POST /oauth/v2/tokens, /revoke and /introspect, also mounted by routers(), for the fast listener. */
  tokenEndpoints: readonly PostEndpoint[];
}

/**
 * The grant registry: the built-in grants unless a test registers others. A composition root
 * builds it once, before the accounts capability (which stores apps' choices among its names),
 * and hands the same registry to composeOAuth.
 */
export function composeGrants(grants: readonly Grant[] = BUILT_IN_GRANTS): GrantRegistry {
  return new GrantRegistry(grants);
}

export function composeOAuth(
  shared: SharedDependencies,
  deps: {
    accounts: Accounts;
    sessions: Sessions;
    grants: GrantRegistry;
    /** Where the sign-in page's "Forgot password?" leads; without it, no such link. */
    forgotPasswordHref?: string;
    /**
     * What the server of this database recorded at its start, for the CLI: it decides whether
     * sandbox tokens may be minted. The server itself leaves it out.
     */
    deployment?: RecordedDeployment;
    /**
     * The deployment's realtime bus, over which a revocation reaches every process's
     * verified-token cache; without it (the CLI) other processes' caches expire on their own.
     */
    bus?: RealtimeBus;
  },
): OAuth {
  const { db, clock, config, audit } = shared;
  const { accounts, sessions, grants } = deps;
  const signingKeys = new SigningKeys(
    new SigningKeyStore(db),
    shared.boxes.signingKeys,
    clock,
    shared.logger,
    config.signingKeyActivationDelayMs,
  );
  const tokens = new TokenStore(db);
  const codes = new AuthorizationCodes(new AuthorizationCodeStore(db), clock);
  const verifier = new AccessTokenVerifier(
    signingKeys,
    tokens,
    clock,
    config.authUrl,
    config.apiUrl,
    config.tokenVerificationCacheMs,
    new RevocationNotices(deps.bus, shared.logger),
  );

  const signer = new TokenSigner(signingKeys, clock, config.authUrl, config.apiUrl);
  const explorerTokens = new ExplorerTokens({
    signer,
    tokens,
    accounts: accounts.stores.accounts,
    audit,
  });

  const clients = new ClientAuthenticator(accounts.stores.apps, accounts.credentials);
  const issuer = new TokenIssuer({
    tokens,
    codes,
    signer,
    verifier,
    accounts: accounts.stores.accounts,
    credentials: accounts.credentials,
    clients,
    audit,
    clock,
  });
  const consents = new ConsentStore(db);
  const sandboxTokens = new SandboxTokens({
    refusal: sandboxRefusal(config, deps.deployment),
    issuer,
    signingKeys,
    apps: accounts.stores.apps,
    accounts: accounts.stores.accounts,
    consents,
    tokens,
    audit,
    clock,
  });

  const tokenServices = {
    grants,
    issuer,
    revocation: new TokenRevocation(tokens, verifier, audit, clock),
    introspection: new TokenIntrospection(tokens, verifier, clock, config.authUrl),
    clients,
    limiter: createRateLimiter(shared, 'token', config.rateLimits.token),
  };
  const accountInfo = new AccountInfoService(accounts.stores.accounts);
  const flow = new AuthorizationFlow({
    consents,
    clock,
    accounts: accounts.stores.accounts,
    apps: accounts.stores.apps,
    codes,
    audit,
  });

  const tokenRouterDeps = { ...tokenServices, bodyLimitBytes: config.bodyLimitBytes };
  const tokenPosts = tokenEndpoints(tokenRouterDeps);
  const routers = (): Router[] => [
    discoveryRouter(config, signingKeys, grants.names),
    tokenRouter(tokenPosts),
    accountInfoRouter(accountInfo, verifier),
    authorizeRouter({
      config,
      sessions: sessions.sessions,
      csrf: sessions.csrf,
      signIn: sessions.signIn,
      flow,
      accounts: accounts.accounts,
      forgotPasswordHref: deps.forgotPasswordHref,
    }),
  ];
  return {
    signingKeys,
    verifier,
    grants,
    explorerTokens,
    sandboxTokens,
    routers,
    tokenEndpoints: tokenPosts,
  };
}
