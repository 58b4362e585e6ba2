import { createHash, createHmac } from 'node:crypto';

/**
 * Tencent Cloud API 3.0 request signing, TC3-HMAC-SHA256. Pure: the caller gives the time.
 * @see https://cloud.tencent.com/document/api/213/30654 (signature v3, with the worked example the tests replay)
 */

export interface Tc3Input {
  readonly secretId: string;
  readonly secretKey: string;
  /** The product, e.g. `hunyuan`; the credential scope names it. */
  readonly service: string;
  /** Unix seconds, sent as `X-TC-Timestamp`; its UTC date is part of the scope. */
  readonly timestamp: number;
  readonly method: 'GET' | 'POST';
  /** The query string (always empty for POST). */
  readonly query?: string;
  /** The headers that are signed, at least `content-type` and `host`, with the values as sent. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body bytes sent. */
  readonly payload: string | Buffer;
}

export interface Tc3Signature {
  readonly authorization: string;
  readonly signature: string;
  readonly canonicalRequest: string;
  readonly stringToSign: string;
}

const algorithm = 'TC3-HMAC-SHA256';

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string): Buffer => createHmac('sha256', key).update(value).digest();

/** The UTC date of a Unix time, `YYYY-MM-DD` (never the local date: it would fail around midnight). */
export function utcDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

export function signTc3(input: Tc3Input): Tc3Signature {
  const headers = Object.entries(input.headers)
    .map(([name, value]) => [name.trim().toLowerCase(), value.trim().toLowerCase()] as const)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const canonicalHeaders = headers.map(([name, value]) => `${name}:${value}\n`).join('');
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = [input.method, '/', input.query ?? '', canonicalHeaders, signedHeaders, sha256Hex(input.payload)].join('\n');
  const date = utcDate(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [algorithm, String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  const authorization = `${algorithm} Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { authorization, signature, canonicalRequest, stringToSign };
}
