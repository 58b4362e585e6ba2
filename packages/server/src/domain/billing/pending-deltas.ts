import type { LogRowText } from '../logs/log-row.ts';

export interface TokenDelta {
  remain: number;
  used: number;
}

export interface UserDelta {
  quota: number;
  used: number;
  requests: number;
}

/** A log row, as its text, with the journal sequence of the charge it explains (0: not journaled). */
export interface JournaledLog {
  readonly seq: number;
  readonly row: LogRowText;
}

/**
 * Quota movements not yet written to the database, aggregated per row, plus the log rows that
 * explain them. One batch adds one aggregated delta to each token, user and channel it charged
 * (QuotaRepository.writeBatch).
 */
export class PendingDeltas {
  readonly tokens = new Map<number, TokenDelta>();
  readonly users = new Map<number, UserDelta>();
  readonly channels = new Map<number, number>();
  logs: JournaledLog[] = [];
  /**
   * The journal sequence of the last charge in here. Batches are written one at a time and in order,
   * so when this batch is written every charge up to it is (see QuotaFlusher).
   */
  highSeq = 0;

  get empty(): boolean {
    return this.tokens.size === 0 && this.users.size === 0 && this.channels.size === 0 && this.logs.length === 0;
  }

  addToken(id: number, remain: number, used: number): void {
    if (id <= 0) return;
    const delta = this.tokens.get(id);
    if (delta) {
      delta.remain += remain;
      delta.used += used;
    } else this.tokens.set(id, { remain, used });
  }

  addUser(id: number, quota: number, used: number, requests: number): void {
    const delta = this.users.get(id);
    if (delta) {
      delta.quota += quota;
      delta.used += used;
      delta.requests += requests;
    } else this.users.set(id, { quota, used, requests });
  }

  addChannel(id: number, used: number): void {
    if (id <= 0 || used === 0) return;
    this.channels.set(id, (this.channels.get(id) ?? 0) + used);
  }

  /** Puts a batch that failed to write back in front of newer movements. */
  absorb(other: PendingDeltas): void {
    for (const [id, delta] of other.tokens) this.addToken(id, delta.remain, delta.used);
    for (const [id, delta] of other.users) this.addUser(id, delta.quota, delta.used, delta.requests);
    for (const [id, used] of other.channels) this.addChannel(id, used);
    this.logs = other.logs.concat(this.logs);
    this.highSeq = Math.max(this.highSeq, other.highSeq);
  }
}
