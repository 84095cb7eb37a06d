/** Access tokens are ES256 (as the hosted platform's are); ID tokens are RS256. */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
