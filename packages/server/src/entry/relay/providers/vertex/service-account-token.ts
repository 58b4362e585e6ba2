import { createSign } from 'node:crypto';
import { SharedTokenCache, type FetchedToken } from '../../../../core/platform/shared-token-cache.ts';
import { request } from 'undici';
import { z } from 'zod';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';

/**
 * OAuth access tokens for a Google service account (the Vertex channel's key), by the JWT bearer
 * flow: a JWT signed with the account's private key is exchanged at its `token_uri`. Tokens are
 * cached until five minutes before they expire, and concurrent requests share one exchange. That
 * exchange belongs to no caller: it runs under its own time limit, a caller who leaves (its request
 * aborted) only stops waiting, and the token is cached for the callers still waiting and the next.
 * @see https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */

export const serviceAccountSchema = z.looseObject({
  project_id: z.string().min(1),
  private_key: z.string().min(1),
  client_email: z.string().min(1),
  private_key_id: z.string().nullish(),
  token_uri: z.string().nullish(),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export function parseServiceAccount(key: string): ServiceAccount | undefined {
  const json = safeParseJson(key);
  if (!json.ok) return undefined;
  const parsed = serviceAccountSchema.safeParse(json.value);
  return parsed.success ? parsed.data : undefined;
}

const defaultTokenUri = 'https://oauth2.googleapis.com/token';
const scope = 'https://www.googleapis.com/auth/cloud-platform';
const refreshMarginSeconds = 300;
const defaultExchangeTimeoutMs = 30_000;

/** A refused exchange: the status and body of the token endpoint. */
export class TokenExchangeError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

export function signJwt(account: ServiceAccount, nowSeconds: number): string {
  const header: Record<string, string> = { alg: 'RS256', typ: 'JWT' };
  if (account.private_key_id) header.kid = account.private_key_id;
  const claims = { iss: account.client_email, scope, aud: account.token_uri || defaultTokenUri, iat: nowSeconds, exp: nowSeconds + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key);
  return `${unsigned}.${base64url(signature)}`;
}

const tokenResponseSchema = z.looseObject({ access_token: z.string().min(1), expires_in: z.number().nullish() });

function cacheKeyOf(account: ServiceAccount): string {
  return `${account.client_email}\n${account.private_key_id ?? ''}\n${account.token_uri ?? ''}`;
}

export class ServiceAccountTokens {
  readonly #tokens: SharedTokenCache;
  readonly #exchangeTimeoutMs: number;

  /** `now` gives Unix seconds; tests pass their own clock (and a short exchange time limit). */
  constructor(now: () => number = () => Math.floor(Date.now() / 1000), options: { exchangeTimeoutMs?: number } = {}) {
    this.#tokens = new SharedTokenCache(now);
    this.#exchangeTimeoutMs = options.exchangeTimeoutMs ?? defaultExchangeTimeoutMs;
  }

  /** A valid access token; `signal` ends this caller's wait, not the exchange others may share. */
  accessToken(account: ServiceAccount, signal?: AbortSignal): Promise<string> {
    return this.#tokens.get(cacheKeyOf(account), () => this.#exchange(account), signal);
  }

  async #exchange(account: ServiceAccount): Promise<FetchedToken> {
    const now = this.#tokens.now();
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: signJwt(account, now) });
    const timeout = AbortSignal.timeout(this.#exchangeTimeoutMs);
    let text: string;
    let statusCode: number;
    try {
      const response = await request(account.token_uri || defaultTokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: timeout,
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      if (timeout.aborted) throw new TokenExchangeError(504, 'service account token exchange timed out');
      throw error;
    }
    const json = safeParseJson(text);
    const parsed = json.ok ? tokenResponseSchema.safeParse(json.value) : undefined;
    if (statusCode !== 200 || !parsed?.success) {
      const detail = json.ok && json.value !== null && typeof json.value === 'object' ? (json.value as Record<string, unknown>) : {};
      const reason = [detail.error, detail.error_description].filter((part) => typeof part === 'string' && part).join(': ');
      throw new TokenExchangeError(statusCode === 200 ? 502 : statusCode, `service account token exchange failed: ${reason || text.slice(0, 200)}`);
    }
    return { token: parsed.data.access_token, refreshAt: now + (parsed.data.expires_in ?? 3600) - refreshMarginSeconds };
  }
}
