import { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { callOutsideJson } from '../../../core/platform/outside-json.ts';
import { verificationMessages } from './verification.messages.ts';

const siteverifyAnswer = z.object({ success: z.boolean() });

/** Site key and secret are filled in, so the check can be asked for even while it is off for everyone. */
export function turnstileConfigured(options: OptionStore): boolean {
  return Boolean(options.get('TurnstileSiteKey') && options.get('TurnstileSecretKey'));
}

/**
 * Cloudflare Turnstile's human check, when TurnstileCheckEnabled is on: the console sends the widget's
 * token as `?turnstile=`, and the server confirms it with siteverify before doing anything.
 * @see https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 */
export class TurnstileVerifier {
  private readonly options: OptionStore;
  private readonly verifyUrl: string;

  constructor(options: OptionStore, verifyUrl: string) {
    this.options = options;
    this.verifyUrl = verifyUrl;
  }

  /** Whether every login, registration and code mail needs the check (TurnstileCheckEnabled). */
  requiredForAll(): boolean {
    return this.options.getBoolean('TurnstileCheckEnabled');
  }

  /** Site key and secret are filled in, so the check can be asked for even while it is off for everyone. */
  configured(): boolean {
    return turnstileConfigured(this.options);
  }

  async assertPassed(token: string | undefined, ip: string): Promise<void> {
    if (!this.requiredForAll()) return;
    if (!token) throw new AppError(verificationMessages.turnstileEmpty);
    await this.assertHuman(token, ip);
  }

  /** Confirms a token with siteverify whatever TurnstileCheckEnabled says (a step-up asked for by the caller). */
  async assertHuman(token: string, ip: string): Promise<void> {
    const answer = await callOutsideJson(this.verifyUrl, { form: { secret: this.options.get('TurnstileSecretKey'), response: token, remoteip: ip } }).catch(
      () => undefined,
    );
    const parsed = siteverifyAnswer.safeParse(answer?.body);
    if (!parsed.success || !parsed.data.success) throw new AppError(verificationMessages.turnstileFailed);
  }
}
