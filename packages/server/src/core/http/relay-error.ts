import type { FastifyReply, FastifyRequest } from 'fastify';
import { languageFromHeader, renderMessage, type LocalizedMessage } from '../messages/catalogue.ts';
import { type OpenAIErrorBody, openAIErrorBody } from './openai-error-body.ts';

/**
 * A relay failure to tell the caller: a local refusal (localized message) or an upstream error
 * (the upstream's message, already masked). Rendered in OpenAI's error shape.
 */
export class RelayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly localized: LocalizedMessage | undefined;
  readonly params: Record<string, string | number>;
  /** A refusal the caller may retry as it is: sent as Retry-After (seconds), in every caller's format. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: LocalizedMessage | string,
    options: { type?: string; params?: Record<string, string | number>; retryAfterSeconds?: number } = {},
  ) {
    super(typeof message === 'string' ? message : message.en);
    this.status = status;
    this.code = code;
    this.type = options.type ?? 'new_api_error';
    this.localized = typeof message === 'string' ? undefined : message;
    this.params = options.params ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Starts a refusal's reply: its status, and its Retry-After when it has one. */
export function replyForRelayError(reply: FastifyReply, error: RelayError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.status(error.status);
}

/** The OpenAI error body; the request id is appended to the message as new-api does. */
export function relayErrorBody(error: RelayError, requestId: string, acceptLanguage: string | undefined): OpenAIErrorBody {
  const message = error.localized ? renderMessage(error.localized, languageFromHeader(acceptLanguage, 'en'), error.params) : error.message;
  return openAIErrorBody({ message: `${message} (request id: ${requestId})`, type: error.type, param: '', code: error.code });
}

export function sendRelayError(request: FastifyRequest, reply: FastifyReply, error: RelayError): FastifyReply {
  return replyForRelayError(reply, error).send(relayErrorBody(error, request.id, request.headers['accept-language']));
}

const secretPatterns: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /([?&](?:key|api[-_]?key|access_token|token)=)[^&\s"']+/gi,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];

/**
 * Removes secrets from text that came from an upstream before anyone sees or logs it: the channel's
 * own keys and address, and anything shaped like a key or a credential query parameter.
 */
export function maskSecrets(text: string, known: readonly string[] = []): string {
  let masked = text;
  for (const secret of known) if (secret && secret.length >= 4) masked = masked.split(secret).join('***');
  for (const pattern of secretPatterns)
    masked = masked.replace(pattern, (match, prefix: unknown) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}***` : '***'));
  return masked;
}
