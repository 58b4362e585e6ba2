import { optionDefinitions, type OptionKey } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { normaliseOptionWrite } from '../../entry/api/option/option-validation.ts';
import type { OptionStore } from '../options/option-store.ts';
import { modelRequestLimitFor } from './model-request-limit.ts';
import { finishChanges, planRelayLimits } from './relay-limit-plan.ts';

/** Options as stored text, read the way the option store reads them. */
function options(values: Partial<Record<OptionKey, string>>): OptionStore {
  const get = (key: OptionKey) => values[key] ?? optionDefinitions[key].defaultValue;
  return {
    get,
    getBoolean: (key: OptionKey) => get(key) === 'true',
    getNumber: (key: OptionKey) => Number(get(key)),
    getJson: (key: OptionKey) => JSON.parse(get(key)) as unknown,
  } as unknown as OptionStore;
}

describe("new-api's per-user model request limit", () => {
  it("is off by default, with new-api's defaults: 1 minute, total unlimited, 1000 successes", () => {
    expect(modelRequestLimitFor(options({}), 'default')).toBeUndefined();
    expect(modelRequestLimitFor(options({ ModelRequestRateLimitEnabled: 'true' }), 'default')).toEqual({ durationMinutes: 1, total: 0, success: 1000 });
  });

  it("takes a group's [total, success] from ModelRequestRateLimitGroup, sharing the window", () => {
    const settings = options({
      ModelRequestRateLimitEnabled: 'true',
      ModelRequestRateLimitDurationMinutes: '5',
      ModelRequestRateLimitGroup: '{"vip": [200, 100], "free": [0, 3]}',
    });
    expect(modelRequestLimitFor(settings, 'vip')).toEqual({ durationMinutes: 5, total: 200, success: 100 });
    expect(modelRequestLimitFor(settings, 'free')).toEqual({ durationMinutes: 5, total: 0, success: 3 });
    expect(modelRequestLimitFor(settings, 'default')).toEqual({ durationMinutes: 5, total: 0, success: 1000 });
  });

  it('refuses group overrides new-api refuses: success below 1, negatives, wrong shapes', () => {
    const current = (key: OptionKey) => optionDefinitions[key].defaultValue;
    expect(normaliseOptionWrite('ModelRequestRateLimitGroup', '{"vip": [0, 1]}', current)).toBe('{"vip": [0, 1]}');
    for (const bad of ['{"vip": [10, 0]}', '{"vip": [-1, 5]}', '{"vip": [1, 2, 3]}', '{"vip": 5}', '[1, 2]', '{"vip": [1.5, 2]}'])
      expect(() => normaliseOptionWrite('ModelRequestRateLimitGroup', bad, current)).toThrow();
    expect(() => normaliseOptionWrite('ModelRequestRateLimitSuccessCount', '0', current)).toThrow();
    expect(() => normaliseOptionWrite('ModelRequestRateLimitDurationMinutes', '0', current)).toThrow();
  });
});

describe('the plan of a relay request', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 30);

  it('lists the user limits first, then the token ones, windows ending with their minute', () => {
    const planned = planRelayLimits(
      {
        userId: 7,
        tokenId: 9,
        model: { durationMinutes: 1, total: 10, success: 5 },
        token: { requestsPerMinute: 3, tokensPerMinute: 1000, concurrentRequests: 2 },
        expectedTokens: 42.4,
        requestId: 'req-1',
      },
      now,
    );
    expect(planned.map((limit) => limit.name)).toEqual(['user-total', 'user-success', 'token-rpm', 'token-tpm', 'token-concurrency']);
    expect(planned[3]?.rule).toMatchObject({ kind: 'window', limit: 1000, cost: 43, ttlMs: 30_000 });
    expect(planned[4]?.rule).toMatchObject({ kind: 'concurrency', limit: 2, leaseId: 'req-1' });
  });

  it('gives back a failed request’s success slot and its token estimate, and corrects a charged one to its usage', () => {
    const planned = planRelayLimits(
      {
        userId: 1,
        tokenId: 2,
        model: { durationMinutes: 1, total: 0, success: 5 },
        token: { requestsPerMinute: 0, tokensPerMinute: 100, concurrentRequests: 1 },
        expectedTokens: 10,
        requestId: 'r',
      },
      now,
    );
    const [success, tpm, concurrency] = planned.map((limit) => limit.rule.key);
    expect(finishChanges(planned, { succeeded: false, usedTokens: undefined })).toEqual([
      { kind: 'window', key: success, delta: -1 },
      { kind: 'window', key: tpm, delta: -10 },
      { kind: 'concurrency', key: concurrency, leaseId: 'r' },
    ]);
    expect(finishChanges(planned, { succeeded: true, usedTokens: 64 })).toEqual([
      { kind: 'window', key: tpm, delta: 54 },
      { kind: 'concurrency', key: concurrency, leaseId: 'r' },
    ]);
  });
});
