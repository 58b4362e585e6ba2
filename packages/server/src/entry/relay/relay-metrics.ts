import type { ChargeJournal } from '../../domain/billing/charge-journal.ts';
import type { QuotaFlusher } from '../../domain/billing/quota-flusher.ts';
import type { QuotaLedger } from '../../domain/billing/quota-ledger.ts';
import type { Metrics } from '../../core/platform/metrics.ts';

/** The relay's charge figures on `/metrics`: requests charged and refunded, quota charged and held, log rows not yet written. */
export function registerRelayMetrics(metrics: Metrics, ledger: QuotaLedger, flusher: QuotaFlusher): void {
  metrics.counter('switchboard_relay_requests_charged_total', 'Relayed requests answered and charged', () => ledger.totals.settled);
  metrics.counter(
    'switchboard_relay_requests_refunded_total',
    'Relayed requests whose hold was given back (failed, refused upstream, caller gone before the upstream was called)',
    () => ledger.totals.refunded,
  );
  metrics.counter('switchboard_quota_charged_total', 'Quota units charged for relayed requests', () => ledger.totals.chargedQuota);
  metrics.gauge('switchboard_quota_held', 'Quota units held by requests in flight', () => ledger.totals.heldQuota);
  metrics.gauge('switchboard_log_rows_unwritten', 'Consume log rows queued for the database', () => ledger.unwrittenLogs + flusher.backlog);
}

/** A journal that cannot be written (a full disk) leaves charges in memory only until the flusher writes them: the operator must see it. */
export function registerJournalMetrics(metrics: Metrics, journal: ChargeJournal): void {
  metrics.gauge(
    'switchboard_quota_journal_writable',
    '1 while charges are written to the quota journal before their answers complete; 0 while they cannot be (a crash would then lose those not yet in the database)',
    () => (journal.writable ? 1 : 0),
    'min',
  );
  metrics.counter('switchboard_quota_journal_failed_writes_total', 'Writes to the quota journal that failed', () => journal.failedWrites);
}
