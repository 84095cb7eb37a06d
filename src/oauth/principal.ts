/** Who is calling, as established from a verified access token. */
export type Principal =
  | {
      kind: 'user';
      userId: string;
      appId: string;
      clientId: string;
      employerId: string | null;
      scopes: string[];
      jti: string;
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
    };
