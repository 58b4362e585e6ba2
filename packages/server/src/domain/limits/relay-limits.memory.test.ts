import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { RelayError } from '../../core/http/relay-error.ts';
import type { RelayCaller } from '../../entry/relay/pipeline/caller-auth.ts';
import { memoryOptionStore } from '../options/testing/memory-option-store.ts';
import type { OptionStore } from '../options/option-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import type { TokenRequestLimits } from './relay-limit-plan.ts';
import { RelayLimits } from './relay-limits.ts';

/** A reply as the limits use it: a header setter and the raw answer whose close gives the slots back. */
function replyDouble(): FastifyReply & { headers: Record<string, string>; close(statusCode: number): void } {
  const raw = Object.assign(new EventEmitter(), { statusCode: 200 });
  const headers: Record<string, string> = {};
  return {
    raw,
    headers,
    header(name: string, value: string) {
      headers[name] = value;
      return this;
    },
    close(statusCode: number) {
      raw.statusCode = statusCode;
      raw.emit('close');
    },
  } as unknown as FastifyReply & { headers: Record<string, string>; close(statusCode: number): void };
}

function callerWith(requestLimits: TokenRequestLimits): RelayCaller {
  return {
    token: { id: 7, requestLimits },
    user: { id: 3 },
    usingGroup: 'default',
    tokenName: 'limited',
    pinnedChannelId: undefined,
  } as unknown as RelayCaller;
}

describe("the relay limits over this process's own store", () => {
  let options: OptionStore;
  const now = Date.UTC(2026, 10, 29, 12, 0, 10);
  const clock = { now: () => now, unixSeconds: () => Math.floor(now / 1000) };

  beforeAll(async () => {
    options = memoryOptionStore({}).options;
    await options.initialise();
  });

  it('admits a limited request at once (no promise, so the relay does not wait a microtask) and gives its slot back on close', () => {
    const limits = new RelayLimits({ store: new MemoryLimitStore(), options, clock });
    const caller = callerWith({ requestsPerMinute: 100, tokensPerMinute: 0, concurrentRequests: 2 });
    const first = replyDouble();
    const second = replyDouble();

    const permits = [limits.admit(caller, 10, 'request-1', first), limits.admit(caller, 10, 'request-2', second)];
    expect(permits.some((permit) => permit instanceof Promise)).toBe(false);

    // The third at the concurrency limit of 2 is refused as it is asked: a 429 naming the limit, with Retry-After.
    const third = replyDouble();
    expect(() => limits.admit(caller, 10, 'request-3', third)).toThrowError(RelayError);
    expect(third.headers['retry-after']).toBe('1');

    first.close(200);
    expect(limits.admit(caller, 10, 'request-4', replyDouble())).not.toBeInstanceOf(Promise);
  });

  it('counts an expired lease as gone once the key reaches its limit (an instance that never released it)', () => {
    const store = new MemoryLimitStore();
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'tok:conc:9', limit: 2, leaseId, ttlMs: 1_000 });
    expect(store.admit([lease('a')], now).admitted).toBe(true);
    expect(store.admit([lease('b')], now).admitted).toBe(true);
    expect(store.admit([lease('c')], now + 500).admitted).toBe(false);
    // Both leases have expired by now: the key is at its limit, so they are dropped and counted out.
    expect(store.admit([lease('d')], now + 1_000).admitted).toBe(true);
    expect(store.admit([lease('e')], now + 1_000).admitted).toBe(true);
    expect(store.admit([lease('f')], now + 1_000).admitted).toBe(false);
  });
});
