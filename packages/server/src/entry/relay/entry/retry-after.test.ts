import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendAnthropicError } from './anthropic/anthropic-error.ts';
import { sendGeminiError } from './gemini/gemini-error.ts';
import { RelayError, sendRelayError } from '../../../core/http/relay-error.ts';

const retryable = new RelayError(503, 'primary_unavailable', { zh: '稍后重试', en: 'Retry in a moment' }, { retryAfterSeconds: 1 });
const final = new RelayError(403, 'insufficient_user_quota', 'no quota');

describe('a relay refusal the caller may retry', () => {
  it('says when to retry (Retry-After) in every caller format, and a final refusal does not', async () => {
    const app = Fastify();
    const senders = { openai: sendRelayError, anthropic: sendAnthropicError, gemini: sendGeminiError };
    for (const [format, send] of Object.entries(senders)) {
      app.get(`/${format}/retryable`, (request, reply) => send(request, reply, retryable));
      app.get(`/${format}/final`, (request, reply) => send(request, reply, final));
    }
    try {
      for (const format of Object.keys(senders)) {
        const retry = await app.inject({ url: `/${format}/retryable` });
        expect([format, retry.statusCode, retry.headers['retry-after']]).toEqual([format, 503, '1']);
        const refused = await app.inject({ url: `/${format}/final` });
        expect([format, refused.statusCode, refused.headers['retry-after']]).toEqual([format, 403, undefined]);
      }
    } finally {
      await app.close();
    }
  });
});
