import { request } from 'undici';
import { SharedTokenCache, type FetchedToken } from '../../../../core/platform/shared-token-cache.ts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { baiduTokenResponseSchema } from './baidu-api.ts';

/**
 * Access tokens for a Baidu channel key `APIKey|SecretKey`, by OAuth client credentials at
 * `{base}/oauth/2.0/token` (the default base URL is Baidu's `aip.baidubce.com`, which serves both
 * the token and the model calls). A token lives 30 days: it is cached per key until an hour before
 * it expires (a tenth of its life for short-lived ones), and concurrent requests share one
 * exchange. The exchange belongs to no caller: a caller who leaves only stops waiting.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Ilkkrb0i5
 */

export interface BaiduKey {
  readonly apiKey: string;
  readonly secretKey: string;
}

export function parseBaiduKey(key: string): BaiduKey | undefined {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { apiKey: parts[0], secretKey: parts[1] };
}

/** A refused or failed exchange; `body` is Baidu's OAuth error (`error`, `error_description`). */
export class TokenExchangeError extends Error {
  readonly status: number;
  readonly body: Record<string, string>;
  constructor(status: number, body: Record<string, string>) {
    super(`${body.error ?? 'token_error'}: ${body.error_description ?? ''}`);
    this.status = status;
    this.body = body;
  }
}

const defaultExchangeTimeoutMs = 30_000;
const maximumRefreshMarginSeconds = 3600;

function cacheKeyOf(baseUrl: string, key: BaiduKey): string {
  return `${baseUrl}\n${key.apiKey}\n${key.secretKey}`;
}

export class BaiduAccessTokens {
  readonly #tokens: SharedTokenCache;
  readonly #exchangeTimeoutMs: number;

  /** `now` gives Unix seconds; tests pass their own clock. */
  constructor(now: () => number = () => Math.floor(Date.now() / 1000), options: { exchangeTimeoutMs?: number } = {}) {
    this.#tokens = new SharedTokenCache(now);
    this.#exchangeTimeoutMs = options.exchangeTimeoutMs ?? defaultExchangeTimeoutMs;
  }

  /** A valid access token; `signal` ends this caller's wait, not the exchange others may share. */
  accessToken(baseUrl: string, key: BaiduKey, signal?: AbortSignal): Promise<string> {
    return this.#tokens.get(cacheKeyOf(baseUrl, key), () => this.#exchange(baseUrl, key), signal);
  }

  /** Drops `token` when Baidu called it invalid (error 110/111), unless a newer one replaced it already. */
  forget(baseUrl: string, key: BaiduKey, token: string): void {
    this.#tokens.forget(cacheKeyOf(baseUrl, key), token);
  }

  async #exchange(baseUrl: string, key: BaiduKey): Promise<FetchedToken> {
    const now = this.#tokens.now();
    const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: key.apiKey, client_secret: key.secretKey });
    const timeout = AbortSignal.timeout(this.#exchangeTimeoutMs);
    let text: string;
    let statusCode: number;
    try {
      const response = await request(`${baseUrl}/oauth/2.0/token?${query.toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        signal: timeout,
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      if (timeout.aborted) throw new TokenExchangeError(504, { error: 'timeout', error_description: 'Baidu access token exchange timed out' });
      throw error;
    }
    const json = safeParseJson(text);
    const parsed = json.ok ? baiduTokenResponseSchema.safeParse(json.value) : undefined;
    const answer = parsed?.success ? parsed.data : undefined;
    if (statusCode !== 200 || !answer?.access_token) {
      const error = answer?.error ?? 'token_error';
      const description = answer?.error_description ?? text.slice(0, 200);
      // Baidu refuses a wrong API key or secret with `invalid_client`: the channel's key is dead.
      const status = error === 'invalid_client' ? 401 : statusCode >= 500 || statusCode === 200 ? 502 : statusCode;
      throw new TokenExchangeError(status, { error, error_description: description });
    }
    const lifetime = answer.expires_in ?? 2_592_000;
    return { token: answer.access_token, refreshAt: now + lifetime - Math.min(maximumRefreshMarginSeconds, Math.floor(lifetime / 10)) };
  }
}
