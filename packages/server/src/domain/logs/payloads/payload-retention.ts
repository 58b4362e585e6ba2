import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { PayloadLogRepository } from './payload-log.repository.ts';
import { PayloadLogService } from './payload-log.service.ts';

/** One retention run deletes at most this many batches. */
const batchesPerRun = 50;

/** Deletes payloads older than LogPayloadRetentionDays (at least one day), whether logging is on or not. */
export function applyPayloadRetention(context: {
  readonly options: OptionStore;
  readonly clock: Clock;
  readonly logDatabase: DatabaseHandle;
}): Promise<number> {
  const days = Math.max(1, context.options.getNumber('LogPayloadRetentionDays'));
  const cutoff = context.clock.unixSeconds() - days * 86_400;
  return new PayloadLogService(new PayloadLogRepository(context.logDatabase)).purgeBefore(cutoff, batchesPerRun);
}
