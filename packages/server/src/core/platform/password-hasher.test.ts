import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password-hasher.ts';

describe('password hasher', () => {
  it('hashes with argon2id and verifies', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verifies bcrypt hashes from an imported new-api database and asks for a rehash', async () => {
    const legacy = bcrypt.hashSync('12345678', 4);
    expect(await verifyPassword('12345678', legacy)).toBe(true);
    expect(await verifyPassword('87654321', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });

  it('refuses empty or unknown hashes', async () => {
    expect(await verifyPassword('x', '')).toBe(false);
    expect(await verifyPassword('x', 'plaintext')).toBe(false);
  });
});
