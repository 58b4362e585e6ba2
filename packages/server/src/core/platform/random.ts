import { randomInt } from 'node:crypto';

const alphanumerics = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Alphanumeric string from the cryptographic generator (token keys, aff codes, name suffixes). */
export function randomAlphanumeric(length: number): string {
  let result = '';
  for (let index = 0; index < length; index += 1) result += alphanumerics[randomInt(alphanumerics.length)];
  return result;
}
