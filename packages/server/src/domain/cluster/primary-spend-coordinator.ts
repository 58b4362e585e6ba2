import { RelayError } from '../../core/http/relay-error.ts';
import type { SpendCoordinator } from '../billing/spend-coordinator.ts';
import type { LeaseGrant } from '../billing/spend-lease-book.ts';
import { clusterMessages } from './cluster.messages.ts';
import { PrimaryGoneError, type PrimaryLink } from './primary-link.ts';

/**
 * The spending guard's book for the workers of one machine without Redis, kept by the primary: every
 * worker's leases on a balance count against it together (see billing/spend-lease-book.ts). A worker
 * asks only when its lease does not cover a request, so far from the edge there is no round trip.
 *
 * An acquire waits for the primary's answer however long it takes (a busy primary, one paused or
 * swapped out for seconds on a loaded machine; it parks an acquire itself for at most departedWaitMs, primary-spend.ts):
 * the answer is the lease, so waiting can neither charge twice nor lose a charge, while giving up
 * failed a paying call with a bare 500 and left the lease the primary then granted held by nobody.
 * Only a primary that is gone (the worker is being stopped) ends the wait: the caller is told to
 * retry (503 with Retry-After, in its own format), and the next worker serves it.
 */
export function createPrimarySpendCoordinator(link: PrimaryLink): SpendCoordinator {
  return {
    outlivesProcess: true,
    acquire: async (key, request) => {
      try {
        return (await link.request((id) => ({ sb: 'spend', id, op: 'acquire', key, request }), Number.POSITIVE_INFINITY)) as LeaseGrant;
      } catch (error) {
        if (error instanceof PrimaryGoneError) throw new RelayError(503, 'primary_unavailable', clusterMessages.primaryGone, { retryAfterSeconds: 1 });
        throw error;
      }
    },
    // Every balance's report of a turn travels in one message (the guard reports them all at once).
    report: (key, report) => link.sendSoon({ sb: 'spend', id: 0, op: 'report', key, report }),
    adjust: (key, delta) => link.send({ sb: 'spend', id: 0, op: 'adjust', key, delta }),
    journalOpened: (journal) => link.send({ sb: 'spend', id: 0, op: 'journal', journal }),
    journalReplayed: (journal, charges) => link.send({ sb: 'spend', id: 0, op: 'replayed', journal, charges }),
  };
}
