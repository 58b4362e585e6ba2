import type { UpstreamError } from '../../provider.ts';
import { libraryAnswerSchema } from './aiproxy-library-api.ts';

/** Reads `{success: false, errCode, message}`; a 401 or 403 (the key refused) disables the channel. */
export function parseLibraryError(status: number, body: unknown): UpstreamError {
  const parsed = libraryAnswerSchema.safeParse(body);
  let message = parsed.success ? (parsed.data.message ?? '') : '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const code = parsed.success && typeof parsed.data.errCode === 'number' ? String(parsed.data.errCode) : 'upstream_error';
  return { status, message, type: 'upstream_error', code, disablesChannel: status === 401 || status === 403 };
}
