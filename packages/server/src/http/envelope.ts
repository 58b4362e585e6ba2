import type { Envelope } from '@switchboard/contracts';

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

export function failure(message: string): Envelope<never> {
  return { success: false, message };
}
