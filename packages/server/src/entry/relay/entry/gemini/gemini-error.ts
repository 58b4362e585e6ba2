import type { FastifyReply, FastifyRequest } from 'fastify';
import { relayErrorBody, replyForRelayError, type RelayError } from '../../../../core/http/relay-error.ts';

/** google.rpc status names by HTTP status. */
const statusNames: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * A relay refusal in Google's shape, `{"error":{"code","message","status"}}`.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function sendGeminiError(request: FastifyRequest, reply: FastifyReply, error: RelayError): FastifyReply {
  const { message } = relayErrorBody(error, request.id, request.headers['accept-language']).error;
  const status = statusNames[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  return replyForRelayError(reply, error).send({ error: { code: error.status, message, status } });
}
