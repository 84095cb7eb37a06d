import { createHash } from 'node:crypto';
import type { DispositionOwner } from './disposition.js';
import type { AcceptedDisposition } from './send-rules.js';

/**
 * What makes two dispositions one: the employer, the application (by the identifier that
 * counts), both statuses and the instant. A disposition sent again (a client's retry, two
 * clients sending the same change) has the same key and is stored once; details, ATS name and
 * source are not part of it, so the first stored copy keeps them. The app is a column of its own
 * beside the key.
 */
export function dispositionKey(owner: DispositionOwner, disposition: AcceptedDisposition): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        owner.employerId,
        disposition.application,
        disposition.dispositionStatus,
        disposition.rawDispositionStatus,
        disposition.statusChangeDateTime.epochMs,
      ]),
    )
    .digest('hex');
}
