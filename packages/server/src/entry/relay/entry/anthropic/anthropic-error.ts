import type { FastifyReply, FastifyRequest } from 'fastify';
import { relayErrorBody, replyForRelayError, type RelayError } from '../../../../core/http/relay-error.ts';

/** Anthropic's error types by HTTP status, for errors that did not come from an Anthropic upstream. */
const typeByStatus: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};
const anthropicTypes = new Set([...Object.values(typeByStatus), 'api_error', 'billing_error', 'timeout_error']);

/**
 * A relay refusal in Anthropic's shape, `{"type":"error","error":{"type","message"}}`, so the
 * Anthropic SDKs raise their typed errors. Same message (localized, request id) as on /v1.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function sendAnthropicError(request: FastifyRequest, reply: FastifyReply, error: RelayError): FastifyReply {
  const { message } = relayErrorBody(error, request.id, request.headers['accept-language']).error;
  const type = anthropicTypes.has(error.type) ? error.type : (typeByStatus[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error'));
  return replyForRelayError(reply, error).send({ type: 'error', error: { type, message } });
}
