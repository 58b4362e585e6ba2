import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { setTimeout as wait } from 'node:timers/promises';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { cozeChatSchema, cozeEnvelopeSchema, cozeMessageSchema } from './coze-api.ts';
import { statusForCozeCode } from './parse-coze-error.ts';

/** Statuses of a chat that will not complete any more. */
const deadEnds = new Set(['failed', 'canceled', 'requires_action']);

function jsonAnswer(statusCode: number, body: unknown): UpstreamResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

/** Reads a Coze JSON answer: its data, or the failed answer (with the status its code stands for) to hand to the relay. */
async function readEnvelope(response: UpstreamResponse): Promise<{ data: unknown } | { failed: UpstreamResponse }> {
  const raw = await text(response.body);
  const parsed = safeParseJson(raw);
  const envelope = parsed.ok ? cozeEnvelopeSchema.safeParse(parsed.value) : undefined;
  if (!envelope?.success) return { failed: jsonAnswer(response.statusCode >= 400 ? response.statusCode : 502, { code: 0, msg: raw.slice(0, 500) }) };
  const code = envelope.data.code ?? 0;
  if (response.statusCode >= 400 || code !== 0)
    return { failed: jsonAnswer(response.statusCode >= 400 ? response.statusCode : statusForCozeCode(code), envelope.data) };
  return { data: envelope.data.data };
}

export interface CozeTransportOptions {
  /** Time between two `/v3/chat/retrieve` calls while the chat is in progress (the first is immediate). */
  readonly pollIntervalMs?: number;
}

/**
 * Plain HTTP with two Coze-specific duties.
 *
 * Streamed: Coze answers a refused request with HTTP 200 and a JSON `{code, msg}` instead of events;
 * such an answer is turned into the failure it is before the relay starts streaming.
 *
 * Not streamed: Coze's `/v3/chat` only starts the chat. As new-api does, the transport polls
 * `/v3/chat/retrieve` until the chat is completed, then reads `/v3/chat/message/list`, and answers
 * `{chat, messages}` for the converter. A chat that fails, is canceled or waits for a tool answers
 * with Coze's `last_error`. The poll stops when the relay's timeout or the caller aborts.
 * @see https://www.coze.com/open/docs/developer_guides/chat_v3
 * @see https://www.coze.com/open/docs/developer_guides/retrieve_chat
 * @see https://www.coze.com/open/docs/developer_guides/list_chat_messages
 */
export function createCozeTransport(settings: CozeTransportOptions = {}): Transport {
  const pollIntervalMs = settings.pollIntervalMs ?? 1000;
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const response = await httpTransport.send(request, options);
      const contentType = String(response.headers['content-type'] ?? '');
      const streamed = request.headers['accept'] === 'text/event-stream';
      if (streamed && !contentType.includes('json')) return response;
      const started = await readEnvelope(response);
      if ('failed' in started) return started.failed;
      if (streamed) return jsonAnswer(502, { code: 0, msg: 'Coze answered a streamed chat without events' });
      const chat = cozeChatSchema.safeParse(started.data);
      if (!chat.success || !chat.data.id || !chat.data.conversation_id) return jsonAnswer(502, { code: 0, msg: 'Coze started no chat' });

      const baseUrl = request.url.replace(/\/v3\/chat$/, '');
      const query = `conversation_id=${encodeURIComponent(chat.data.conversation_id)}&chat_id=${encodeURIComponent(chat.data.id)}`;
      const get = (path: string) =>
        httpTransport.send({ url: `${baseUrl}${path}?${query}`, method: 'GET', headers: { authorization: request.headers['authorization'] ?? '' } }, options);
      let finished = chat.data;
      for (let polls = 0; finished.status !== 'completed'; polls += 1) {
        if (polls > 0) await wait(pollIntervalMs, undefined, { signal: options.signal });
        const retrieved = await readEnvelope(await get('/v3/chat/retrieve'));
        if ('failed' in retrieved) return retrieved.failed;
        const current = cozeChatSchema.safeParse(retrieved.data);
        if (!current.success) return jsonAnswer(502, { code: 0, msg: 'Coze answered an unreadable chat' });
        finished = current.data;
        if (deadEnds.has(finished.status ?? '')) {
          const code = finished.last_error?.code ?? 0;
          return jsonAnswer(code ? statusForCozeCode(code) : 502, { code, msg: finished.last_error?.msg || `Coze chat ${finished.status ?? 'failed'}` });
        }
      }
      const listed = await readEnvelope(await get('/v3/chat/message/list'));
      if ('failed' in listed) return listed.failed;
      const messages = Array.isArray(listed.data) ? listed.data.filter((message) => cozeMessageSchema.safeParse(message).success) : [];
      return jsonAnswer(200, { chat: finished, messages });
    },
  };
}
