// The caches' default sizes live with the configuration, not in relay/: config.ts reads them, and the
// WORKERS primary loads config.ts but none of the gateway's modules (process-module-graphs.test.ts).

/**
 * Tokens held by default (TOKEN_CACHE_SIZE). A token record costs about 410 bytes with its two index
 * entries (relay/cache/token-cache.memory.test.ts; more with model or address limits): some 40 MiB at most,
 * whatever the size of the table, while a deployment's tokens in use fit.
 */
export const defaultTokenCacheSize = 100_000;

/**
 * Users held by default (USER_CACHE_SIZE). A user record costs about 280 bytes with its index entry
 * (relay/cache/user-cache.memory.test.ts): some 14 MiB at most, whatever the size of the table.
 */
export const defaultUserCacheSize = 50_000;
