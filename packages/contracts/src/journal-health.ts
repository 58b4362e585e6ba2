/**
 * `GET /api/status/journal` (root): whether this process can write the quota journal, the file each
 * charge reaches before its answer completes. While it cannot (a full disk), charges live in memory
 * until the database has them, and a crash would lose them: the console shows root a banner.
 */
export interface JournalHealth {
  /** False from a failed write until a write succeeds again; true when the journal is off. */
  writable: boolean;
  /** Writes that failed since this process started. */
  failed_writes: number;
  /** Whether paid calls are refused meanwhile (the `RefuseWhenJournalFailing` setting). */
  refusing_paid_calls: boolean;
}
