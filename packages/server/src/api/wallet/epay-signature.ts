import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The Epay (易支付) signature: every parameter except `sign`, `sign_type` and empty values, sorted by
 * name, joined as `a=1&b=2`, the merchant key appended, MD5 in lower-case hex.
 */
export function signEpay(parameters: Record<string, string>, key: string): string {
  const text = Object.keys(parameters)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && parameters[name] !== '' && parameters[name] !== undefined)
    .sort()
    .map((name) => `${name}=${parameters[name]}`)
    .join('&');
  return createHash('md5').update(text + key, 'utf8').digest('hex');
}

export function verifyEpay(parameters: Record<string, string>, key: string): boolean {
  const given = Buffer.from(parameters.sign ?? '', 'utf8');
  const expected = Buffer.from(signEpay(parameters, key), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
