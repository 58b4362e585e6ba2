import type { DepartedCharge, LeaseReport, LeaseRequest } from '../billing/spend-lease-book.ts';
import type { LimitChange, LimitRule } from '../limits/limit-store.ts';
import type { ChangeMessage, WorkerChangeMessage } from './change-messages.ts';

export type { ChangeMessage } from './change-messages.ts';

/**
 * What the processes of one machine say to each other over the cluster's IPC channel. Every message
 * carries `sb` so prom-client's own cluster messages (and any other) pass by untouched.
 */

/** One call on the primary's short-lived value store (mail codes, login challenges, failure counters). */
export interface StoreRequest {
  readonly sb: 'store';
  readonly id: number;
  readonly op: StoreOperation;
  readonly args: readonly (string | number)[];
}

export type StoreOperation = 'get' | 'set' | 'setIfAbsent' | 'take' | 'delete' | 'increment' | 'decrement';

/** A worker asks for the metrics of every worker, added up (its scraper reached only it). */
export interface MetricsRequest {
  readonly sb: 'metrics';
  readonly id: number;
}

/**
 * A batch of SQLite writes (BatchStatement[] as JSON text) for the machine's one writer, which the
 * primary keeps per database file: one writer, so WAL lock waits never come between the workers.
 */
export interface BatchRequest {
  readonly sb: 'batch';
  readonly id: number;
  readonly path: string;
  readonly statements: string;
}

/** The spending guard's leases on balances, kept by the primary for the machine (cluster/primary-spend.ts). */
export type SpendMessage =
  | { readonly sb: 'spend'; readonly id: number; readonly op: 'acquire'; readonly key: string; readonly request: LeaseRequest }
  | { readonly sb: 'spend'; readonly id: 0; readonly op: 'report'; readonly key: string; readonly report: LeaseReport }
  | { readonly sb: 'spend'; readonly id: 0; readonly op: 'adjust'; readonly key: string; readonly delta: number }
  /** The worker's quota journal: a replacement that replays it after the worker died says what the worker spent. */
  | { readonly sb: 'spend'; readonly id: 0; readonly op: 'journal'; readonly journal: string }
  /** A dead process's journal was replayed at start: the charges of it that were not in the database. */
  | { readonly sb: 'spend'; readonly id: 0; readonly op: 'replayed'; readonly journal: string; readonly charges: readonly DepartedCharge[] };

/** Request limits counted by the primary for the machine (cluster/primary-limit-store.ts). */
export type LimitMessage =
  | { readonly sb: 'limit'; readonly id: number; readonly op: 'admit'; readonly rules: readonly LimitRule[]; readonly now: number }
  | { readonly sb: 'limit'; readonly id: 0; readonly op: 'settle'; readonly changes: readonly LimitChange[]; readonly now: number };

/**
 * A worker's requests in flight per channel (least-busy routing), every ~200 ms; the primary answers
 * with the other workers' counts added up (cluster/primary-busy.ts).
 */
export interface BusyReport {
  readonly sb: 'busy';
  readonly id: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly now: number;
}

/**
 * Fire-and-forget messages a worker sent in one event-loop turn, in their order, as one message
 * (PrimaryLink.sendSoon): the spending guard's reports and the limits' settlements of a busy turn
 * cost the primary one read and one deserialisation instead of one per balance or request.
 */
export interface Bundle {
  readonly sb: 'bundle';
  readonly messages: readonly BundledMessage[];
}

/** What may wait for the end of the turn: messages that expect no answer and that the primary handles in primary-services.ts. */
export type BundledMessage = Extract<SpendMessage, { op: 'report' }> | Extract<LimitMessage, { op: 'settle' }>;

/** The primary's answer to a `store`, `metrics`, `batch`, `spend`, `limit`, `busy` or confirmed `change` request. */
export interface Reply {
  readonly sb: 'reply';
  readonly id: number;
  readonly result?: unknown;
  readonly error?: string;
}

export type WorkerMessage = WorkerChangeMessage | StoreRequest | MetricsRequest | BatchRequest | SpendMessage | LimitMessage | BusyReport | Bundle;
export type PrimaryMessage = ChangeMessage | Reply;

export function isSwitchboardMessage(message: unknown): message is WorkerMessage | PrimaryMessage {
  return typeof message === 'object' && message !== null && typeof (message as { sb?: unknown }).sb === 'string';
}
