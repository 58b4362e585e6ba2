import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commonMessages, languageFromHeader, renderMessage, type LocalizedMessage } from '../messages/catalogue.ts';
import { AppError } from './app-error.ts';
import { failure } from './envelope.ts';
import { requestPath } from './request-path.ts';
import { openAIErrorBody } from './openai-error-body.ts';

/** Which error shape a (normalised) path speaks: the console envelope, or the OpenAI error object on the relay. */
export function isRelayPath(path: string): boolean {
  return path.startsWith('/v1') || path.startsWith('/pg/') || path.startsWith('/dashboard/');
}

/**
 * `code` names the failure in the relay's error object; the console envelope carries it only with
 * `codeInEnvelope`, for the few failures the console acts on (an AppError's own code).
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  localized: LocalizedMessage,
  params: Record<string, string | number> = {},
  code = '',
  codeInEnvelope = false,
) {
  const relay = isRelayPath(requestPath(request));
  const language = languageFromHeader(request.headers['accept-language'], relay ? 'en' : 'zh');
  const message = renderMessage(localized, language, params);
  if (relay) {
    return reply.status(status).send(openAIErrorBody({ message: `${message} (request id: ${request.id})`, type: 'new_api_error', param: '', code }));
  }
  return reply.status(status).send(failure(message, codeInEnvelope ? code : ''));
}

function messageForFastifyError(error: FastifyError): { status: number; key: LocalizedMessage } {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status: 400, key: commonMessages.invalidJson };
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, key: commonMessages.bodyTooLarge };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, key: commonMessages.invalidRequest };
  if (error.validation) return { status: 400, key: commonMessages.invalidParameter };
  if (error.statusCode === 429) return { status: 429, key: commonMessages.tooManyRequests };
  if (error.statusCode && error.statusCode < 500) return { status: error.statusCode, key: commonMessages.invalidRequest };
  return { status: 500, key: commonMessages.internalError };
}

/**
 * One place turns every failure into the caller's dialect. 5xx details are logged with the request id
 * and never sent.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.status, error.localized, error.params, error.code, true);
    }
    const { status, key } = messageForFastifyError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, status, key);
  });
}
