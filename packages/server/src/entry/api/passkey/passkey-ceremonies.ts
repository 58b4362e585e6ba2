import { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { passkeyMessages } from './passkey.messages.ts';
import { base64UrlToUtf8, isBase64Url } from './passkey-encoding.ts';

/** How long the browser has between a begin call and its finish call (the WebAuthn prompt's timeout, and some slack). */
export const ceremonyTimeoutMs = 120_000;
const lifetimeSeconds = 180;

const ceremonySchema = z.object({
  purpose: z.enum(['register', 'login', 'verify']),
  /** The user the ceremony is for; absent for a password-less login (the passkey says who). */
  userId: z.number().int().positive().optional(),
  /** A pending password login this passkey completes as its second factor. */
  flowToken: z.string().optional(),
  rpId: z.string(),
  origins: z.array(z.string()),
});

export type Ceremony = z.infer<typeof ceremonySchema> & { challenge: string };

const key = (challenge: string) => `passkey-challenge:${challenge}`;

/**
 * Challenges kept on the server (the shared store: Redis with several instances) under the challenge
 * itself, for three minutes, and taken on first use: the browser's signed clientDataJSON names the
 * challenge, so finishing needs no cookie, and a replayed or expired answer finds nothing.
 */
export class PasskeyCeremonies {
  private readonly store: ExpiringStore;

  constructor(store: ExpiringStore) {
    this.store = store;
  }

  async remember(challenge: string, ceremony: z.infer<typeof ceremonySchema>): Promise<void> {
    await this.store.set(key(challenge), JSON.stringify(ceremony), lifetimeSeconds);
  }

  /** The ceremony the answer's clientDataJSON belongs to, removed from the store; refuses a stranger's or another purpose's. */
  async take(clientDataJson: string, purpose: Ceremony['purpose'], userId?: number): Promise<Ceremony> {
    const challenge = challengeOf(clientDataJson);
    const stored = challenge ? await this.store.take(key(challenge)) : undefined;
    const parsed = stored ? safeParseJson(stored) : undefined;
    const ceremony = parsed?.ok ? ceremonySchema.safeParse(parsed.value) : undefined;
    if (!challenge || !ceremony?.success || ceremony.data.purpose !== purpose) throw new AppError(passkeyMessages.ceremonyExpired);
    if (userId !== undefined && ceremony.data.userId !== userId) throw new AppError(passkeyMessages.ceremonyExpired);
    return { ...ceremony.data, challenge };
  }
}

const clientDataSchema = z.object({ challenge: z.string().min(1).max(512) });

/** The challenge the browser signed over (checked again, with the origin and type, by the WebAuthn library). */
function challengeOf(clientDataJson: string): string | undefined {
  if (!isBase64Url(clientDataJson)) return undefined;
  const parsed = safeParseJson(base64UrlToUtf8(clientDataJson));
  const data = parsed.ok ? clientDataSchema.safeParse(parsed.value) : undefined;
  return data?.success ? data.data.challenge : undefined;
}
