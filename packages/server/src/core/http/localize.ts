import type { FastifyRequest } from 'fastify';
import { languageFromHeader, type LocalizedMessage, renderMessage } from '../messages/catalogue.ts';

/** A success message in the caller's console language (errors are rendered by the error handler). */
export function localize(request: FastifyRequest, message: LocalizedMessage, params: Record<string, string | number> = {}): string {
  return renderMessage(message, languageFromHeader(request.headers['accept-language'], 'zh'), params);
}
