import type { components } from '../../../generated/openapi.js';
import type { AccountStore } from '../../accounts/account-store.js';
import type { Principal } from '../principal.js';

type Userinfo = components['schemas']['UserInfo'];
type Appinfo = components['schemas']['AppInfo'];

export type AccountInfoResult<T> =
  { ok: true; body: T } | { ok: false; reason: string; scope?: string };

/** What userinfo and appinfo reveal about the account behind a token (spec §2.4, §2.5). */
export class AccountInfoService {
  constructor(private readonly accounts: AccountStore) {}

  async userinfo(principal: Principal): Promise<AccountInfoResult<Userinfo>> {
    if (principal.kind !== 'user') {
      return { ok: false, reason: 'userinfo needs a token from the authorization code grant' };
    }
    const user = await this.accounts.findUserById(principal.userId);
    if (!user) return { ok: false, reason: 'the account of this token no longer exists' };
    const body: Userinfo = { sub: user.id };
    if (principal.scopes.includes('email')) {
      body.email = user.email;
      body.email_verified = user.email_verified;
    }
    if (principal.scopes.includes('employer_access')) {
      const employers = await this.employersOf(user.id);
      if (employers.length) body.employers = employers;
    }
    return { ok: true, body };
  }

  async appinfo(principal: Principal): Promise<AccountInfoResult<Appinfo>> {
    if (principal.kind !== 'app') {
      return { ok: false, reason: 'appinfo needs a token from the client_credentials grant' };
    }
    if (!principal.scopes.includes('employer_access')) {
      return {
        ok: false,
        reason: 'appinfo needs the employer_access scope',
        scope: 'employer_access',
      };
    }
    const employers = await this.employersOf(principal.ownerUserId);
    return { ok: true, body: employers.length ? { employers } : {} };
  }

  private async employersOf(userId: string): Promise<Array<{ id: string; name: string }>> {
    return (await this.accounts.listEmployersOfUser(userId)).map(({ employer }) => ({
      id: employer.id,
      name: employer.name,
    }));
  }
}
