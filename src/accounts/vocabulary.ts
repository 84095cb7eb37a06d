/**
 * The accounts domain's vocabularies, each written once with its type derived from it.
 * Migrations keep their own literal lists: a migration is a frozen snapshot of its day.
 */

/** What a member may do for an employer. */
export const MEMBERSHIP_ROLES = ['admin', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

/** Confidential apps hold a client secret; public apps (in a browser or on a device) cannot. */
export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
