import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { authenticateToken, type RelayCaller } from '../../pipeline/caller-auth.ts';
import { RelayError } from '../../../../core/http/relay-error.ts';
import { readRelayKey } from '../../pipeline/relay-key.ts';
import type { RelayServices } from '../../relay-services.ts';
import { anthropicEntryMessages } from './anthropic-entry.messages.ts';

/** The caller of an Anthropic-format route: key in `x-api-key` or `Authorization`, checked like any relay key. */
export function authenticateAnthropicCaller(request: FastifyRequest, services: RelayServices): Promise<RelayCaller> {
  return authenticateToken(readRelayKey(request.headers, '/v1/messages', request.query as Record<string, unknown>), request.ip, {
    tokens: services.tokens,
    keyGuesses: services.keyGuesses,
    users: services.users,
    options: services.options,
    nowSeconds: services.clock.unixSeconds(),
  });
}

/** The request body read with `schema`, or the 400 Anthropic answers for a body it cannot take. */
export function readAnthropicBody<T>(request: FastifyRequest, schema: z.ZodType<T>): T {
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const json = safeParseJson(raw.toString('utf8'));
  const parsed = json.ok ? schema.safeParse(json.value) : undefined;
  if (parsed?.success) return parsed.data;
  const detail = json.ok ? (parsed?.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? '') : json.error;
  throw new RelayError(400, 'invalid_request', anthropicEntryMessages.invalidBody, { params: { detail }, type: 'invalid_request_error' });
}
