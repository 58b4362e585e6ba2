import { AppError } from '../../http/app-error.ts';
import type { LocalizedMessage } from '../../messages/catalogue.ts';

/**
 * The outgoing-request policy refused an address. An AppError, so a console caller (saving a webhook,
 * testing a setting) is told why in their language; background senders log it.
 */
export class OutgoingRefused extends AppError {
  constructor(message: LocalizedMessage, params: Record<string, string | number>) {
    super(message, { params, code: 'outgoing_refused' });
  }
}

/** The refusal behind an error, when a connection failed because the policy refused the resolved address. */
export function outgoingRefusalOf(error: unknown): OutgoingRefused | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof OutgoingRefused) return current;
  }
  return undefined;
}
