import { createHmac } from 'node:crypto';

/**
 * iFlytek's signed WebSocket URL: HMAC-SHA256 with the APISecret over the `host`, `date` and
 * request line, wrapped in an `authorization` value (base64) that names the APIKey, and sent as
 * query parameters with the date and host. The date must be within 300 s of iFlytek's clock, so a
 * URL is signed for each connection.
 * @see https://www.xfyun.cn/doc/spark/general_url_authentication.html
 */

/** The base64 HMAC-SHA256 signature of `host`, `date` and `GET <path> HTTP/1.1`. */
export function sparkSignature(host: string, date: string, path: string, apiSecret: string): string {
  const signed = `host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`;
  return createHmac('sha256', apiSecret).update(signed).digest('base64');
}

/** The `authorization` query value: base64 of the documented `api_key="…", algorithm=…` line. */
export function sparkAuthorization(apiKey: string, signature: string): string {
  const origin = `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  return Buffer.from(origin, 'utf8').toString('base64');
}

/** `url` with `authorization`, `date` (RFC 1123, GMT) and `host` added to its query. */
export function signSparkUrl(url: string, credentials: { apiKey: string; apiSecret: string }, now: Date): string {
  const address = new URL(url);
  const date = now.toUTCString();
  const signature = sparkSignature(address.host, date, address.pathname, credentials.apiSecret);
  address.searchParams.set('authorization', sparkAuthorization(credentials.apiKey, signature));
  address.searchParams.set('date', date);
  address.searchParams.set('host', address.host);
  return address.toString();
}
