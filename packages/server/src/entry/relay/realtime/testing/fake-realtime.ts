import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';

/** Usage of one response as OpenAI's `response.done` reports it. */
export interface RealtimeResponseUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: { cached_tokens: number; text_tokens: number; audio_tokens: number };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

/** What the fake saw of one session: its handshake and the client's frames, as text. */
export interface SeenSession {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  frames: string[];
}

export interface FakeRealtime {
  /** `http://127.0.0.1:<port>`: a channel's base URL. */
  baseUrl: string;
  sessions: SeenSession[];
  /** Sessions still open on the upstream side. */
  openSessions(): number;
  /** Closes every open session from the upstream side (a vendor hanging up mid-session). */
  hangUp(code: number): void;
  close(): Promise<void>;
}

/** The event names of the two protocols that differ in a text-and-audio response. */
const eventNames = {
  ga: { audioDelta: 'response.output_audio.delta', textDelta: 'response.output_text.delta' },
  beta: { audioDelta: 'response.audio.delta', textDelta: 'response.text.delta' },
} as const;

/**
 * A local stand-in for OpenAI's (and Azure's) Realtime API, speaking its events: `session.created` on
 * connect and, for each `response.create`, `response.created`, one audio delta, one text delta and
 * `response.done` with `usage`. The handshake is checked like the real one: OpenAI
 * `/v1/realtime?model=` with `Authorization: Bearer <key>`, Azure with `api-key` on its GA path
 * `/openai/v1/realtime?model=` or its preview path `/openai/realtime?api-version=&deployment=` (always
 * the beta protocol); a wrong key gets HTTP 401. Like
 * OpenAI, a session opened with `OpenAI-Beta: realtime=v1` speaks the beta protocol
 * (`response.text.delta`, `response.audio.delta`), one without it the GA protocol
 * (`response.output_text.delta`, `response.output_audio.delta`, sessions of `type: "realtime"`);
 * `gaOnly` is a GA-only model, which closes a beta session with 4000 `beta_api_shape_disabled`.
 * @see https://platform.openai.com/docs/guides/realtime#beta-to-ga-migration
 */
export async function startFakeRealtime(options: { key: string; usage: RealtimeResponseUsage; gaOnly?: boolean }): Promise<FakeRealtime> {
  const sessions: SeenSession[] = [];
  const sockets = new Set<WebSocket>();
  const server = createServer((_request, response) => response.writeHead(404).end());
  const upgrades = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const azurePreview = url.pathname === '/openai/realtime' && url.searchParams.has('api-version') && url.searchParams.has('deployment');
    const azureGa = url.pathname === '/openai/v1/realtime' && url.searchParams.has('model') && !url.searchParams.has('api-version');
    const azure = azurePreview || azureGa;
    const openai = url.pathname === '/v1/realtime' && url.searchParams.has('model');
    const protocol = azurePreview || request.headers['openai-beta'] === 'realtime=v1' ? 'beta' : 'ga';
    const names = eventNames[protocol];
    const key = azure ? request.headers['api-key'] : String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if ((!azure && !openai) || key !== options.key) {
      const body = JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
      socket.end(`HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    upgrades.handleUpgrade(request, socket, head, (client) => {
      const seen: SeenSession = { path: url.pathname, query: url.searchParams, headers: request.headers, frames: [] };
      sessions.push(seen);
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      if (protocol === 'beta' && options.gaOnly) {
        client.send(JSON.stringify({ type: 'error', event_id: 'event_0', error: { type: 'invalid_request_error', code: 'beta_api_shape_disabled' } }));
        client.close(4000, 'beta_api_shape_disabled');
        return;
      }
      const session = { id: 'sess_1', object: 'realtime.session', model: url.searchParams.get('model') };
      client.send(JSON.stringify({ type: 'session.created', event_id: 'event_1', session: protocol === 'ga' ? { ...session, type: 'realtime' } : session }));
      let responses = 0;
      client.on('message', (data) => {
        const text = data.toString();
        seen.frames.push(text);
        const parsed = safeParseJson(text);
        if (!parsed.ok || (parsed.value as { type?: string }).type !== 'response.create') return;
        responses += 1;
        const id = `resp_${responses}`;
        client.send(
          JSON.stringify({ type: 'response.created', event_id: `event_c${responses}`, response: { id, object: 'realtime.response', status: 'in_progress' } }),
        );
        client.send(
          JSON.stringify({
            type: names.audioDelta,
            event_id: `event_a${responses}`,
            response_id: id,
            item_id: 'item_1',
            output_index: 0,
            content_index: 0,
            delta: 'UklGRg==',
          }),
        );
        client.send(
          JSON.stringify({
            type: names.textDelta,
            event_id: `event_t${responses}`,
            response_id: id,
            item_id: 'item_1',
            output_index: 0,
            content_index: 0,
            delta: 'Hello',
          }),
        );
        client.send(
          JSON.stringify({
            type: 'response.done',
            event_id: `event_d${responses}`,
            response: { id, object: 'realtime.response', status: 'completed', output: [], usage: options.usage },
          }),
        );
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sessions,
    openSessions: () => sockets.size,
    hangUp: (code) => {
      for (const socket of sockets) socket.close(code, 'server hang-up');
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      upgrades.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
