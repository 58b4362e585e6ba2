import type { RelayServices } from '../relay/relay-services.ts';
import type { TaskRefunds } from './task-billing.ts';
import type { TaskStoreRepository } from './task-store.repository.ts';

/** How long the task relays wait; injectable so tests never wait real seconds. */
export interface TaskRelayTiming {
  /** A submit to the vendor (new-api: 60 s). */
  readonly submitTimeoutMs: number;
  /** A fetch of task states or an image (new-api: 15–30 s). */
  readonly fetchTimeoutMs: number;
  /** An unfinished task older than this fails and is refunded (TASK_TIMEOUT_MINUTES). */
  readonly taskTimeoutMs: number;
  /** Tasks one polling pass reads per vendor (new-api's TASK_QUERY_LIMIT). */
  readonly pollBatchSize: number;
}

/** What the Midjourney and Suno relays share: the relay's services, the task store and the refunds. */
export interface TaskRelayContext {
  readonly services: RelayServices;
  readonly store: TaskStoreRepository;
  readonly refunds: TaskRefunds;
  readonly timing: TaskRelayTiming;
}

/** The path a log row records: the caller's path without its query. */
export function pathWithoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** A channel's key for one call: one of its keys at random (multi-key channels). */
export function channelKey(keys: readonly string[], random: () => number): string {
  return keys[Math.floor(random() * keys.length)] ?? '';
}
