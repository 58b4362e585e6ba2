import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { PayloadCapture, type PayloadFacts } from './payload-capture.ts';
import { parseLimit } from './payload-body.ts';
import { PayloadLogQueue } from './payload-log-queue.ts';
import { PayloadLogRepository } from './payload-log.repository.ts';

/** Queued payloads reach the database within this time. */
const flushIntervalMs = 1000;

/** What the relay knows of a caller's token for this decision (TokenRecord has it). */
export interface PayloadSwitch {
  readonly logPayload: boolean;
}

/** What payload logging reads and writes: its switches, the log database, where a failed write is told. */
export interface PayloadLoggingDependencies {
  readonly options: OptionStore;
  readonly logDatabase: DatabaseHandle;
  readonly logger: Logger;
}

/**
 * Payload logging for the relay. Bodies are stored when LogPayloadEnabled is on (every request) or,
 * while it is off, for the requests of tokens whose `log_payload` switch is on. The global switch is
 * kept as a field, updated when the option changes, so a request with logging off costs one check
 * and no copy of anything.
 */
export class PayloadLogging {
  readonly queue: PayloadLogQueue;
  private globalOn: boolean;
  private readonly maxBytes: () => number;

  constructor(context: PayloadLoggingDependencies) {
    const { options } = context;
    this.globalOn = options.getBoolean('LogPayloadEnabled');
    options.onChange((key) => {
      if (key === 'LogPayloadEnabled') this.globalOn = options.getBoolean('LogPayloadEnabled');
    });
    this.maxBytes = () => Math.max(1024, options.getNumber('LogPayloadMaxBytes'));
    this.queue = new PayloadLogQueue({ repository: new PayloadLogRepository(context.logDatabase), maxBytes: this.maxBytes, logger: context.logger });
  }

  /** A capture for this request when its payload is logged, else undefined (the relay then does nothing more). */
  capture(token: PayloadSwitch | undefined, requestBody: Buffer, contentType: string): PayloadCapture | undefined {
    if (!this.globalOn && token?.logPayload !== true) return undefined;
    return new PayloadCapture(requestBody, contentType, parseLimit(this.maxBytes()));
  }

  /** The request was answered: its bodies join the queue (written on the next flush). */
  record(capture: PayloadCapture, facts: PayloadFacts): void {
    this.queue.enqueue(capture.pending(facts));
  }

  /** Writes what is queued now (tests; shutdown). */
  flush(): Promise<void> {
    return this.queue.flush();
  }
}

/** Payload logging with its flush timer running and its last flush registered for shutdown. */
export function startPayloadLogging(context: PayloadLoggingDependencies & { readonly onShutdown: (task: () => Promise<void>) => void }): PayloadLogging {
  const logging = new PayloadLogging(context);
  logging.queue.start(flushIntervalMs);
  context.onShutdown(() => logging.queue.stop());
  return logging;
}
