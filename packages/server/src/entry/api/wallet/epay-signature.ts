import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * `&` and `=` are the separators of the signed text and control characters have no business in it: a
 * name or value holding one could make two different parameter sets sign the same bytes (issue 16).
 * C1 controls (U+0080–U+009F) are refused with the C0 ones and DEL.
 */
function isAmbiguous(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '&' || char === '=' || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** The signed parameters: every one except `sign`, `sign_type` and empty values, sorted by name. */
function signedNames(parameters: Record<string, string>): string[] {
  return Object.keys(parameters)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && parameters[name] !== '' && parameters[name] !== undefined)
    .sort();
}

/** The first signed parameter (in signing order) whose name or value Epay cannot sign unambiguously. */
export function firstAmbiguousEpayField(parameters: Record<string, string>): string | undefined {
  return signedNames(parameters).find((name) => isAmbiguous(name) || isAmbiguous(parameters[name] ?? ''));
}

/** A value that can be signed and compared as is: no `&`, `=` or control character, and not empty. */
export function isPlainEpayValue(value: string): boolean {
  return value !== '' && !isAmbiguous(value);
}

/**
 * The Epay (易支付) signature: the signed parameters joined as `a=1&b=2`, the merchant key appended,
 * MD5 in lower-case hex. Real gateways sign the raw values, so escaping them would break the wire
 * format; instead an ambiguous parameter is never signed (callers check it first and explain why).
 */
export function signEpay(parameters: Record<string, string>, key: string): string {
  const ambiguous = firstAmbiguousEpayField(parameters);
  if (ambiguous !== undefined) throw new Error(`refusing to sign the ambiguous Epay parameter ${ambiguous}`);
  const text = signedNames(parameters)
    .map((name) => `${name}=${parameters[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** True only for a correct signature over an unambiguous parameter set. */
export function verifyEpay(parameters: Record<string, string>, key: string): boolean {
  if (firstAmbiguousEpayField(parameters) !== undefined) return false;
  const given = Buffer.from(parameters.sign ?? '', 'utf8');
  const expected = Buffer.from(signEpay(parameters, key), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
