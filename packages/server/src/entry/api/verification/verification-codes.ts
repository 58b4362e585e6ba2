import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { verificationMessages } from './verification.messages.ts';

/** `email`: registration and email binding codes; `reset`: password reset links. */
export type CodePurpose = 'email' | 'reset';

export const codeValiditySeconds = 10 * 60;
export const resendCooldownSeconds = 30;
/** Wrong guesses allowed against one code before it is thrown away. */
const maxWrongAttempts = 5;

const storedCode = z.object({ code: z.string(), issuedAt: z.number(), wrong: z.number() });
type StoredCode = z.infer<typeof storedCode>;

function sameText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Codes mailed to an address: valid for ten minutes, usable once, at most one mail per address and
 * purpose every thirty seconds. Held in the shared store, so any instance can verify a code.
 */
export class VerificationCodes {
  private readonly store: ExpiringStore;
  private readonly clock: Clock;

  constructor(store: ExpiringStore, clock: Clock) {
    this.store = store;
    this.clock = clock;
  }

  private key(purpose: CodePurpose, email: string): string {
    return `code:${purpose}:${email}`;
  }

  /** Reserves the resend slot, then creates the code; the caller mails it. */
  async issue(purpose: CodePurpose, email: string): Promise<string> {
    const reserved = await this.store.setIfAbsent(`cooldown:${purpose}:${email}`, String(this.clock.now()), resendCooldownSeconds);
    if (!reserved) throw new AppError(verificationMessages.resendTooSoon, { status: 429, params: { seconds: resendCooldownSeconds } });
    const code = purpose === 'reset' ? randomBytes(16).toString('hex') : String(randomInt(0, 1_000_000)).padStart(6, '0');
    const value: StoredCode = { code, issuedAt: this.clock.now(), wrong: 0 };
    await this.store.set(this.key(purpose, email), JSON.stringify(value), codeValiditySeconds);
    return code;
  }

  /** Lets the address ask again at once (used when the mail could not be sent). */
  async releaseCooldown(purpose: CodePurpose, email: string): Promise<void> {
    await this.store.delete(`cooldown:${purpose}:${email}`);
  }

  private read(raw: string | undefined): StoredCode | undefined {
    if (!raw) return undefined;
    const json = safeParseJson(raw);
    const parsed = storedCode.safeParse(json.ok ? json.value : undefined);
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * True once for the right, unexpired code; the code is gone afterwards. Two requests racing with
   * the right code cannot both succeed: only the one whose `take` returns it wins.
   */
  async consume(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    const key = this.key(purpose, email);
    const raw = await this.store.get(key);
    const stored = this.read(raw);
    if (!stored || !code) return false;
    if (this.clock.now() - stored.issuedAt > codeValiditySeconds * 1000) {
      await this.store.delete(key);
      return false;
    }
    if (!sameText(stored.code, code.trim())) {
      const wrong = stored.wrong + 1;
      if (wrong >= maxWrongAttempts) await this.store.delete(key);
      else await this.store.set(key, JSON.stringify({ ...stored, wrong }), codeValiditySeconds);
      return false;
    }
    const taken = await this.store.take(key);
    return taken !== undefined && this.read(taken)?.code === stored.code;
  }
}
