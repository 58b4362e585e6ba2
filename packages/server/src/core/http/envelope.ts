import type { Envelope } from '@switchboard/contracts';

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

/** `code`, when given, names the failure for the console to act on; most failures carry only the message. */
export function failure(message: string, code = ''): Envelope<never> {
  return code ? { success: false, message, code } : { success: false, message };
}
