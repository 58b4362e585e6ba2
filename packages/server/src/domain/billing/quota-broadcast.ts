import { safeParseJson } from '../../core/platform/safe-json.ts';
import type { PendingDeltas } from './pending-deltas.ts';

/** Movements one instance has written, for the others' in-memory balances. */
export interface QuotaBroadcast {
  readonly origin: string;
  /** [token id, remain delta, used delta] */
  readonly tokens: ReadonlyArray<readonly [number, number, number]>;
  /** [user id, quota delta, used delta, request count delta] */
  readonly users: ReadonlyArray<readonly [number, number, number, number]>;
}

export function encodeQuotaBroadcast(origin: string, batch: PendingDeltas): string {
  const message: QuotaBroadcast = {
    origin,
    tokens: [...batch.tokens].map(([id, delta]) => [id, delta.remain, delta.used] as const),
    users: [...batch.users].map(([id, delta]) => [id, delta.quota, delta.used, delta.requests] as const),
  };
  return JSON.stringify(message);
}

const isRow = (row: unknown, length: number): row is number[] =>
  Array.isArray(row) && row.length === length && row.every((value) => typeof value === 'number' && Number.isFinite(value));

export function decodeQuotaBroadcast(payload: string): QuotaBroadcast | undefined {
  const parsed = safeParseJson(payload);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const value = parsed.value as Record<string, unknown>;
  if (typeof value.origin !== 'string' || !Array.isArray(value.tokens) || !Array.isArray(value.users)) return undefined;
  return {
    origin: value.origin,
    tokens: value.tokens.filter((row) => isRow(row, 3)) as unknown as QuotaBroadcast['tokens'],
    users: value.users.filter((row) => isRow(row, 4)) as unknown as QuotaBroadcast['users'],
  };
}
