import type { FastifyRequest } from 'fastify';
import { languageFromHeader, renderMessage } from '../../core/messages/catalogue.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import { RelayError } from '../../core/http/relay-error.ts';

/** The relay scope keeps bodies as bytes: a task submit's body as a JSON object, or undefined when it is not one. */
export function jsonObjectBody(request: FastifyRequest): Record<string, unknown> | undefined {
  const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  const parsed = safeParseJson(raw || '{}');
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  return parsed.value as Record<string, unknown>;
}

/** A refusal of the relay's key checks, as text for a vendor-shaped error (English unless the caller asks otherwise). */
export function callerRefusal(request: FastifyRequest, error: unknown): { status: number; message: string; code: string } | undefined {
  if (!(error instanceof RelayError)) return undefined;
  const message = error.localized ? renderMessage(error.localized, languageFromHeader(request.headers['accept-language'], 'en'), error.params) : error.message;
  return { status: error.status, message, code: error.code };
}
