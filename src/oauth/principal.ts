/**
 * Who is calling, as established from a verified access token. `accountsEpoch`: the accounts
 * change epoch read with the token's record when it was verified (src/db/change-epochs.ts);
 * facts about the app cached from before it (which APIs it may use) are read again. Absent for
 * a principal made otherwise (tests' stand-ins).
 */
export type Principal =
  | {
      kind: 'user';
      userId: string;
      appId: string;
      clientId: string;
      employerId: string | null;
      scopes: string[];
      jti: string;
      accountsEpoch?: number;
    }
  | {
      kind: 'app';
      appId: string;
      clientId: string;
      /** The account that owns the app: the creator of what the app schedules. */
      ownerUserId: string;
      employerId: string | null;
      scopes: string[];
      jti: string;
      accountsEpoch?: number;
    };
