import type { LocalizedMessage } from '../messages/catalogue.ts';

/**
 * A failure a caller can be told about. `status` is the HTTP status; the classic console API answers
 * most refusals with 200 and `success: false`, which is the default here.
 */
export class AppError extends Error {
  readonly localized: LocalizedMessage;
  readonly status: number;
  readonly params: Record<string, string | number>;
  /** A stable name the console can act on (e.g. `turnstile_required` shows the human check); '' for most. */
  readonly code: string;

  constructor(localized: LocalizedMessage, options: { status?: number; params?: Record<string, string | number>; code?: string } = {}) {
    super(localized.en);
    this.localized = localized;
    this.status = options.status ?? 200;
    this.params = options.params ?? {};
    this.code = options.code ?? '';
  }
}
