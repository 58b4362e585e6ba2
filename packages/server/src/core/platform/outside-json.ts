import { request } from 'undici';
import type { OutgoingRequests } from './outgoing/outgoing-requests.ts';
import { safeParseJson } from './safe-json.ts';

export interface OutsideAnswer {
  status: number;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
}

/** Raised when the outside service cannot be reached or does not answer in time. */
export class OutsideServiceError extends Error {}

const timeoutMs = 10_000;

/**
 * One JSON call to an outside service (Turnstile, an OAuth provider, the WeChat server). Login flows
 * are rare, so plain undici requests with a short timeout; the answer is parsed, never trusted.
 * An address from the settings (an administrator's word) goes `via` the outgoing-request policy; the
 * providers' own addresses and their test overrides come from the deployment's environment.
 */
export async function callOutsideJson(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; form?: Record<string, string>; via?: OutgoingRequests } = {},
): Promise<OutsideAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const method = init.method ?? (body === undefined ? 'GET' : 'POST');
  try {
    const response = init.via
      ? await init.via.open({ url, method, headers, ...(body === undefined ? {} : { body }), timeoutMs })
      : await request(url, { method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const text = await response.body.text();
    const parsed = safeParseJson(text);
    return { status: response.statusCode, body: parsed.ok ? parsed.value : undefined };
  } catch (error) {
    throw new OutsideServiceError(`${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
