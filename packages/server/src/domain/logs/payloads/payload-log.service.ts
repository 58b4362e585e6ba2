import type { LogPayloadView } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';
import type { PayloadLogRepository } from './payload-log.repository.ts';

export const payloadMessages = {
  logNotFound: { zh: '日志不存在', en: 'No such log entry' },
} as const satisfies Record<string, LocalizedMessage>;

/** One small batch per statement, so a purge never holds the table for long (SQLite's single writer). */
export const payloadPurgeBatchSize = 500;

/** Reading and purging stored payloads. */
export class PayloadLogService {
  private readonly repository: PayloadLogRepository;

  constructor(repository: PayloadLogRepository) {
    this.repository = repository;
  }

  /** The payload of a log row's request; null when none was stored (logging was off for it). */
  async ofLog(logId: number): Promise<LogPayloadView | null> {
    const requestId = await this.repository.requestIdOfLog(logId);
    if (requestId === undefined) throw new AppError(payloadMessages.logNotFound);
    if (!requestId) return null;
    const row = await this.repository.findByRequestId(requestId);
    if (!row) return null;
    return {
      request_id: row.request_id,
      created_at: Number(row.created_at),
      is_stream: toBoolean(row.is_stream),
      request_body: row.request_body ?? '',
      response_body: row.response_body ?? '',
      request_truncated: toBoolean(row.request_truncated),
      response_truncated: toBoolean(row.response_truncated),
    };
  }

  /**
   * Deletes payloads created before the cutoff, batch by batch with the event loop free between
   * them, up to `maxBatches` (a large backlog is worked off over several runs). Answers the count.
   */
  async purgeBefore(cutoff: number, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const deleted = await this.repository.deleteBatchBefore(cutoff, payloadPurgeBatchSize);
      total += deleted;
      if (deleted < payloadPurgeBatchSize) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }
}
