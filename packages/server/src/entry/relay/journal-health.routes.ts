import type { JournalHealth } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import type { ChargeJournal } from '../../domain/billing/charge-journal.ts';
import { ok } from '../../core/http/envelope.ts';
import type { OptionStore } from '../../domain/options/option-store.ts';

/**
 * GET /api/status/journal (root): whether this process can write the quota journal, for the console's
 * banner (the `/metrics` gauge says the same to a scraper). Each worker has its own journal; a full
 * disk fails them all, so the worker that answers speaks for the machine. Without a journal
 * (QUOTA_JOURNAL_DIR=off) nothing can fail: writable.
 */
export function registerJournalHealthRoute(app: FastifyInstance, journal: ChargeJournal | undefined, options: OptionStore): void {
  app.get('/api/status/journal', { config: { access: 'root' } }, async () => {
    const writable = journal?.writable ?? true;
    const health: JournalHealth = {
      writable,
      failed_writes: journal?.failedWrites ?? 0,
      refusing_paid_calls: !writable && options.getBoolean('RefuseWhenJournalFailing'),
    };
    return ok(health);
  });
}
