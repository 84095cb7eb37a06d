/** Ids `nodes` takes at most (its `@listSize` slices on them). */
export const MAX_NODE_IDS = 100;

/**
 * Surfaces `JobPost.status` reports on at most: `JobPostStatus.surfaceStatuses` has
 * `@listSize(assumedSize:)` of this number.
 */
export const MAX_SURFACES = 10;
