import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { callOutsideJson } from '../../platform/outside-json.ts';
import { verificationMessages } from './verification.messages.ts';

const siteverifyAnswer = z.object({ success: z.boolean() });

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

  async assertPassed(token: string | undefined, ip: string): Promise<void> {
    if (!this.options.getBoolean('TurnstileCheckEnabled')) return;
    if (!token) throw new AppError(verificationMessages.turnstileEmpty);
    const answer = await callOutsideJson(this.verifyUrl, { form: { secret: this.options.get('TurnstileSecretKey'), response: token, remoteip: ip } }).catch(() => undefined);
    const parsed = siteverifyAnswer.safeParse(answer?.body);
    if (!parsed.success || !parsed.data.success) throw new AppError(verificationMessages.turnstileFailed);
  }
}
