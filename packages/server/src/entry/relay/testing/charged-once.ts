import { expect } from 'vitest';
import type { ledgerState } from './relay-seed.ts';

/**
 * Token, user and the one channel each moved by exactly `quota`, once: from the balances a test's
 * token (1,000,000) and user (10,000,000) started with, one request counted on the user.
 */
export function expectChargedOnce(state: Awaited<ReturnType<typeof ledgerState>>, quota: number): void {
  expect(state.token).toMatchObject({ remain_quota: 1_000_000 - quota, used_quota: quota });
  expect(state.user).toMatchObject({ quota: 10_000_000 - quota, used_quota: quota, request_count: 1 });
  expect(state.channels[0]?.used_quota).toBe(quota);
}
