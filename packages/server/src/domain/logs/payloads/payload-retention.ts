import type { AppContext } from '../../../app-context.ts';
import { PayloadLogRepository } from './payload-log.repository.ts';
import { PayloadLogService } from './payload-log.service.ts';

/** One retention run deletes at most this many batches. */
const batchesPerRun = 50;

/** Deletes payloads older than LogPayloadRetentionDays (at least one day), whether logging is on or not. */
export function applyPayloadRetention(context: Pick<AppContext, 'options' | 'clock' | 'logDatabase'>): Promise<number> {
  const days = Math.max(1, context.options.getNumber('LogPayloadRetentionDays'));
  const cutoff = context.clock.unixSeconds() - days * 86_400;
  return new PayloadLogService(new PayloadLogRepository(context.logDatabase)).purgeBefore(cutoff, batchesPerRun);
}
