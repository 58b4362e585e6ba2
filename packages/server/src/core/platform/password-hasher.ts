import { hash, verify } from '@node-rs/argon2';

/**
 * New passwords are hashed with argon2id. Databases imported from new-api or one-api hold bcrypt
 * hashes; those still verify, and `needsRehash` tells the login flow to upgrade them.
 */
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (!stored) return false;
  if (stored.startsWith('$argon2')) {
    return verify(stored, password).catch(() => false);
  }
  if (/^\$2[abxy]\$/.test(stored)) {
    // Loaded on the first bcrypt hash only: a moved-over database rehashes each one at its first login.
    const { default: bcrypt } = await import('bcryptjs');
    return bcrypt.compare(password, stored);
  }
  return false;
}

export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2id$');
}
