import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

export const backupCodeCount = 10;
// No 0/O or 1/I: the codes are read off paper.
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const hashLength = 32;

/** Ten fresh codes in new-api's `XXXX-XXXX` form (40 bits each). */
export function generateBackupCodes(): string[] {
  return Array.from({ length: backupCodeCount }, () => {
    const characters = Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${characters.slice(0, 4)}-${characters.slice(4)}`;
  });
}

/** Upper case without separators or spaces, so `abcd efgh` and `ABCD-EFGH` are the same code. */
export function normaliseBackupCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

export function looksLikeBackupCode(code: string): boolean {
  return /^[A-Z0-9]{8}$/.test(normaliseBackupCode(code));
}

/**
 * Hashes a generation of codes with scrypt (slow enough that a leaked table does not give the codes
 * away) and ONE salt shared by the generation: checking a guess then costs one scrypt, not ten.
 * Stored as `scrypt$<salt>$<hash>`, base64url.
 */
export async function hashBackupCodes(codes: readonly string[]): Promise<string[]> {
  const salt = randomBytes(16);
  return Promise.all(codes.map(async (code) => `scrypt$${salt.toString('base64url')}$${(await derive(code, salt)).toString('base64url')}`));
}

function derive(code: string, salt: Buffer): Promise<Buffer> {
  return scryptAsync(normaliseBackupCode(code), salt, hashLength);
}

/** The index in `stored` of the hash `code` matches, or -1; one scrypt per distinct salt. */
export async function findBackupCode(code: string, stored: readonly string[]): Promise<number> {
  const derived = new Map<string, Buffer>();
  for (const [index, entry] of stored.entries()) {
    const [scheme, salt, hash] = entry.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) continue;
    let candidate = derived.get(salt);
    if (!candidate) {
      candidate = await derive(code, Buffer.from(salt, 'base64url'));
      derived.set(salt, candidate);
    }
    const expected = Buffer.from(hash, 'base64url');
    if (expected.length === candidate.length && timingSafeEqual(expected, candidate)) return index;
  }
  return -1;
}
