import type { Admission, LimitChange, LimitRule, LimitStore } from '../limits/limit-store.ts';
import { MemoryLimitStore } from '../limits/memory-limit-store.ts';
import type { LimitMessage } from './cluster-messages.ts';
import type { PrimaryLink } from './primary-link.ts';

/** What a worker learns of its admission from the primary (the store is its own line). */
export type PrimaryAdmission = { readonly admitted: true } | { readonly admitted: false; readonly refused: number; readonly retryAfterMs: number };

/**
 * Request limits of a machine without Redis, counted by the primary for all its workers: a token's
 * RPM, TPM and concurrency, new-api's per-user model request limit and the per-address limits hold for
 * the machine, not once per worker. One IPC round trip per admission of a request that has limits;
 * its settlement waits for the end of the turn, with the turn's others.
 */
export class PrimaryLimitStore implements LimitStore {
  private readonly link: PrimaryLink;

  constructor(link: PrimaryLink) {
    this.link = link;
  }

  async admit(rules: readonly LimitRule[], now: number): Promise<Admission> {
    const answer = (await this.link.request((id) => ({ sb: 'limit', id, op: 'admit', rules, now }))) as PrimaryAdmission;
    return answer.admitted ? { admitted: true, store: this } : answer;
  }

  settle(changes: readonly LimitChange[], now: number): void {
    // The settlements of a turn's finished requests travel in one message.
    this.link.sendSoon({ sb: 'limit', id: 0, op: 'settle', changes, now });
  }
}

/** The primary's side: one memory store for the machine. */
export class PrimaryLimits {
  private readonly store = new MemoryLimitStore();

  /** Answers an admission (undefined for a settlement, which expects no answer). */
  handle(message: LimitMessage): PrimaryAdmission | undefined {
    if (message.op === 'settle') {
      this.store.settle(message.changes, message.now);
      return undefined;
    }
    const admission = this.store.admit(message.rules, message.now);
    return admission.admitted ? { admitted: true } : { admitted: false, refused: admission.refused, retryAfterMs: admission.retryAfterMs };
  }
}
