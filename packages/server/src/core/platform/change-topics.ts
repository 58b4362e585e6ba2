/**
 * Topics on the change bus. A service that writes one of these tables publishes the id it changed
 * (or '*' for many); every instance's in-memory copy (the relay's token, user and channel caches)
 * reloads what it holds for that id.
 */
export const changeTopics = {
  users: 'users',
  tokens: 'tokens',
  channels: 'channels',
  /** Quota deltas another instance just flushed (JSON, see billing/quota-broadcast.ts); applied in memory. */
  quota: 'quota',
  /** A channel's circuit breaker opened or closed (JSON, see relay/circuit-breaker/redis-breaker-sync.ts). */
  breakers: 'breakers',
  /** An administrator purged the response cache: every process empties its own store (relay/response-cache/). */
  responseCache: 'response-cache',
} as const;
