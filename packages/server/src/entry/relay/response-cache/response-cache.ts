import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { CapabilityName } from '../provider.ts';
import type { AnswerStore } from './answer-store.ts';
import type { CachedAnswer } from './cached-answer.ts';
import { cacheKey } from './cache-key.ts';
import { CompiledCacheRules, readCacheRules, type CacheRule } from './cache-rules.ts';
import { isCachedCapability, ruleAllows } from './cacheable-request.ts';

/** What the cache does for one request a rule applies to. */
export interface CachePlan {
  readonly rule: CacheRule;
  readonly key: string;
  /** False when the caller asked for a fresh answer (`Cache-Control: no-cache`, `x-switchboard-cache: refresh`). */
  readonly read: boolean;
  /** False for `Cache-Control: no-store`. */
  readonly write: boolean;
}

export interface CacheRequest {
  readonly capability: CapabilityName;
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
  readonly body: Record<string, unknown> | undefined;
  /** The groups the request is routed in, in order (one unless the caller's group is `auto`). */
  readonly groups: readonly string[];
  /** An administrator's key pinned to one channel (`sk-…-<id>`): that channel's own answer is wanted. */
  readonly pinnedChannel: boolean;
  readonly userId: number;
  /** The token's owner switched the cache off for it. */
  readonly tokenOptedOut: boolean;
  readonly cacheControl: string | undefined;
  readonly switchboardCache: string | undefined;
}

/**
 * The response cache: rules from `ResponseCacheRules`, compiled when the option changes (never per
 * request), answers in an `AnswerStore`. With no rule the relay's cost is one property read.
 */
export class ResponseCache {
  private rules: CompiledCacheRules;
  private readonly store: AnswerStore;
  private readonly onError: (error: unknown) => void;

  constructor(options: OptionStore, store: AnswerStore, onError: (error: unknown) => void) {
    this.store = store;
    this.onError = onError;
    const compile = () => {
      const read = readCacheRules(options.getJson<unknown>('ResponseCacheRules') ?? []);
      // A value written past the option check (another tool, an older version) switches the cache off rather than half on.
      return new CompiledCacheRules(read.ok ? read.rules : []);
    };
    this.rules = compile();
    options.onChange((key) => {
      if (key === 'ResponseCacheRules') this.rules = compile();
    });
  }

  /** The plan for a request, or undefined when no rule applies (or the request may not be cached). */
  plan(request: CacheRequest): CachePlan | undefined {
    if (this.rules.empty || !request.body || request.tokenOptedOut || request.pinnedChannel || !isCachedCapability(request.capability)) return undefined;
    const rule = this.rules.match(request.model);
    if (!rule || !ruleAllows(rule, request.body)) return undefined;
    const control = (request.cacheControl ?? '').toLowerCase();
    const noStore = control.includes('no-store');
    const refresh = noStore || control.includes('no-cache') || request.switchboardCache?.toLowerCase() === 'refresh';
    const key = cacheKey({
      path: request.path,
      model: request.model,
      stream: request.stream,
      groups: request.groups.join(','),
      body: request.body,
      userId: rule.scope === 'user' ? request.userId : undefined,
    });
    return { rule, key, read: !refresh, write: !noStore };
  }

  /**
   * The stored answer, or undefined; a store that fails (Redis down) is a miss, never a failed
   * request. Synchronous for the memory store: the caller awaits only a promise.
   */
  lookup(plan: CachePlan): Promise<CachedAnswer | undefined> | CachedAnswer | undefined {
    try {
      const stored = this.store.get(plan.key);
      if (!(stored instanceof Promise)) return stored;
      return stored.catch((error: unknown) => {
        this.onError(error);
        return undefined;
      });
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  /** Stores a complete answer within the rule's size limit; the caller does not wait for it. */
  save(plan: CachePlan, answer: CachedAnswer): void {
    if (!plan.write || answer.body.length > plan.rule.max_bytes) return;
    try {
      // Its own copy of the usage: the memory store keeps the object itself, and every later hit reads it.
      const written = this.store.set(plan.key, { ...answer, usage: { ...answer.usage } }, plan.rule.ttl);
      if (written instanceof Promise) written.catch(this.onError);
    } catch (error) {
      this.onError(error);
    }
  }

  purge(): Promise<number> {
    return this.store.purge();
  }
}
