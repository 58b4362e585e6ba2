import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 parameters; authenticator apps assume SHA-1, 6 digits and 30 s when the URL omits them. */
export interface TotpParameters {
  algorithm: 'sha1' | 'sha256' | 'sha512';
  digits: number;
  periodSeconds: number;
}

export const defaultTotpParameters: TotpParameters = { algorithm: 'sha1', digits: 6, periodSeconds: 30 };

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps read from `secret=`. */
export function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += base32Alphabet[(value << (5 - bits)) & 31];
  return output;
}

export function decodeBase32(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of clean) {
    const index = base32Alphabet.indexOf(character);
    if (index < 0) throw new Error(`not a base32 character: ${character}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A fresh 160-bit secret (RFC 4226 §4 recommends the HMAC output length), base32. */
export function generateTotpSecret(): string {
  return encodeBase32(randomBytes(20));
}

/** RFC 4226 §5.3: HMAC over the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: number, parameters: TotpParameters = defaultTotpParameters): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac(parameters.algorithm, key).update(message).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** parameters.digits).padStart(parameters.digits, '0');
}

/** The RFC 6238 time step of a moment: floor(unix seconds / period). */
export function timeStep(unixSeconds: number, parameters: TotpParameters = defaultTotpParameters): number {
  return Math.floor(unixSeconds / parameters.periodSeconds);
}

export function totpAt(key: Buffer, unixSeconds: number, parameters: TotpParameters = defaultTotpParameters): string {
  return hotp(key, timeStep(unixSeconds, parameters), parameters);
}

/**
 * The time step whose code matches, searching the current step and `window` steps either side
 * (RFC 6238 §5.2 allows one step of clock drift), or undefined. Compared in constant time.
 */
export function matchingTimeStep(
  key: Buffer,
  code: string,
  unixSeconds: number,
  window = 1,
  parameters: TotpParameters = defaultTotpParameters,
): number | undefined {
  if (code.length !== parameters.digits) return undefined;
  const current = timeStep(unixSeconds, parameters);
  const given = Buffer.from(code);
  for (let step = current - window; step <= current + window; step += 1) {
    if (step < 0) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step, parameters)), given)) return step;
  }
  return undefined;
}

/**
 * The otpauth URL authenticator apps scan (Google Authenticator's Key-Uri-Format): the label is
 * `issuer:account`, and the issuer is repeated as a parameter for apps that read only that.
 */
export function otpauthUrl(secret: string, issuer: string, account: string, parameters: TotpParameters = defaultTotpParameters): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: parameters.algorithm.toUpperCase(),
    digits: String(parameters.digits),
    period: String(parameters.periodSeconds),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
