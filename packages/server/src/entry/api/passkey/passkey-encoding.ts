/**
 * The few base64/base64url conversions passkeys need, on Node's Buffer. They replace
 * `@simplewebauthn/server/helpers`, whose import pulls in the library's whole certificate stack
 * (about 5 MB of heap in every process); the library itself is loaded on the first ceremony.
 */

const base64UrlText = /^[A-Za-z0-9_-]*$/;

/** Base64url with or without padding, as WebAuthn JSON carries it (simplewebauthn's isBase64URL). */
export function isBase64Url(text: string): boolean {
  return base64UrlText.test(text.replace(/=/g, ''));
}

/** A base64url text decoded as UTF-8 (clientDataJSON, user handles). */
export function base64UrlToUtf8(text: string): string {
  return Buffer.from(text, 'base64url').toString('utf8');
}

/** new-api stores credential ids in standard base64; WebAuthn JSON carries them base64url. */
export function base64UrlToBase64(text: string): string {
  return Buffer.from(text, 'base64url').toString('base64');
}

export function base64ToBase64Url(text: string): string {
  return Buffer.from(text, 'base64').toString('base64url');
}

export function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const buffer = Buffer.from(text, 'base64');
  return new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
}

export function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function utf8ToBytes(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(text));
}
