import { createHmac } from 'node:crypto';

/**
 * The self-signed token v3 wants in `Authorization` (raw, no "Bearer"): an HS256 JWT over the key's
 * id, signed with its secret, with times in MILLISECONDS (not the JWT-usual seconds) and Zhipu's own
 * `sign_type: SIGN` header field. No exchange with Zhipu is involved, so the token is computed here
 * and reused until shortly before it expires.
 * @see https://open.bigmodel.cn/dev/api#nosdk
 */

export interface ZhipuKey {
  readonly id: string;
  readonly secret: string;
}

/** The channel key `id.secret`; undefined for anything else. */
export function parseZhipuKey(key: string): ZhipuKey | undefined {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { id: parts[0], secret: parts[1] };
}

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** The token for `key`, valid from `nowMs` for `lifetimeMs`. Pure: same inputs, same token. */
export function signZhipuToken(key: ZhipuKey, nowMs: number, lifetimeMs: number): string {
  const header = { alg: 'HS256', sign_type: 'SIGN' };
  const payload = { api_key: key.id, exp: nowMs + lifetimeMs, timestamp: nowMs };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = createHmac('sha256', key.secret).update(unsigned).digest();
  return `${unsigned}.${base64url(signature)}`;
}

/** One hour of validity; a token is replaced five minutes before it runs out. */
const tokenLifetimeMs = 60 * 60 * 1000;
const refreshMarginMs = 5 * 60 * 1000;
/** Keys rotate; the cache must not keep every key ever seen. */
const maxCachedKeys = 1024;

interface CachedToken {
  readonly token: string;
  readonly expiresAtMs: number;
}

/** Tokens per channel key, cached until near expiry. */
export class ZhipuTokens {
  readonly #cache = new Map<string, CachedToken>();
  readonly #nowMs: () => number;

  /** `nowMs` gives Unix milliseconds; tests pass their own clock. */
  constructor(nowMs: () => number = Date.now) {
    this.#nowMs = nowMs;
  }

  tokenFor(key: ZhipuKey): string {
    const cacheKey = `${key.id}.${key.secret}`;
    const now = this.#nowMs();
    const cached = this.#cache.get(cacheKey);
    if (cached && cached.expiresAtMs - refreshMarginMs > now) return cached.token;
    const token = signZhipuToken(key, now, tokenLifetimeMs);
    this.#cache.delete(cacheKey);
    if (this.#cache.size >= maxCachedKeys) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(cacheKey, { token, expiresAtMs: now + tokenLifetimeMs });
    return token;
  }
}
