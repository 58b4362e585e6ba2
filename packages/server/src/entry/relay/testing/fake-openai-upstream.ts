import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { styledResponse, type WriteStyle } from './write-style.ts';

/**
 * How the fake answers a key: `ok` speaks OpenAI's real wire format; the others are the faults
 * the relay must survive.
 * - `status-500`, `status-429`, `status-401`: an OpenAI error body with that status
 * - `timeout`: never answers (no headers)
 * - `reset-before`: closes the connection before any byte
 * - `reset-mid`: streams part of the answer, then drops the connection
 * - `malformed`: 200 with a body that is not JSON
 * - `context-length`: OpenAI's 400 refusal of a prompt longer than the model's context (`context_length_exceeded`,
 *   the body OpenAI's API answers, as its error-codes guide and the openai-python client's fixtures show it)
 * - `silent`: stream headers, then nothing
 * - `hang-after`: streams a few chunks, then waits until the client leaves
 * - `no-usage`: a stream without the usage chunk even when asked
 */
export type FakeMode =
  | 'ok'
  | 'slow'
  | 'status-500'
  | 'status-429'
  | 'status-401'
  | 'timeout'
  | 'reset-before'
  | 'reset-mid'
  | 'malformed'
  | 'silent'
  | 'hang-after'
  | 'no-usage'
  | 'context-length';

export interface RecordedRequest {
  readonly path: string;
  readonly key: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown> | undefined;
  /** A multipart body decoded as a server decodes it (audio files, image edits), or undefined. */
  readonly form: FormData | undefined;
  readonly raw: Buffer;
}

export interface FakeUsage {
  prompt: number;
  completion: number;
  cached?: number;
}

/** How long the 'slow' mode waits before answering. */
export const slowAnswerMs = 30;

const contentPieces = ['Hello', ' from', ' the', ' fake', ' upstream', '.'];

export class FakeOpenAIUpstream {
  readonly requests: RecordedRequest[] = [];
  /** Requests whose client (the relay) went away before the fake finished answering. */
  abortedRequests = 0;
  usage: FakeUsage = { prompt: 12, completion: 6 };
  /** Awaited before each answer once the request is recorded: lets a test hold every answer until it has seen them all arrive. */
  beforeAnswer: (() => Promise<void>) | undefined;
  private readonly modes = new Map<string, FakeMode>();
  private writeStyle: WriteStyle = 'as-composed';
  private readonly server: Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  private abortWaiters: Array<() => void> = [];
  private url = '';

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  get baseUrl(): string {
    return this.url;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Answers requests made with this key in the given mode. */
  behave(key: string, mode: FakeMode): void {
    this.modes.set(key, mode);
  }

  /** How streamed answers from now on reach the wire (see WriteStyle). */
  setWriteStyle(style: WriteStyle): void {
    this.writeStyle = style;
  }

  /** Resolves once a client has gone away from a request the fake was still answering. */
  waitForAbort(): Promise<void> {
    if (this.abortedRequests > 0) return Promise.resolve();
    return new Promise((resolve) => this.abortWaiters.push(resolve));
  }

  private countAbortWhenClosedEarly(response: ServerResponse): void {
    response.on('close', () => {
      if (response.writableFinished) return;
      this.abortedRequests += 1;
      for (const resolve of this.abortWaiters.splice(0)) resolve();
    });
  }

  requestsFor(key: string): RecordedRequest[] {
    return this.requests.filter((request) => request.key === key);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const key = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const path = (request.url ?? '').split('?')[0] ?? '';
    const contentType = request.headers['content-type'] ?? '';
    let body: Record<string, unknown> | undefined;
    if (contentType.includes('json') && raw.length > 0) {
      const parsed = safeParseJson(raw.toString('utf8'));
      if (parsed.ok) body = parsed.value as Record<string, unknown>;
    }
    const form = contentType.startsWith('multipart/form-data')
      ? await new Response(raw, { headers: { 'content-type': contentType } }).formData().catch(() => undefined)
      : undefined;
    this.requests.push({ path, key, headers: request.headers, body, form, raw });
    if (this.beforeAnswer) await this.beforeAnswer();
    const mode = this.modes.get(key) ?? 'ok';

    if (mode === 'timeout') return this.countAbortWhenClosedEarly(response);
    // A real upstream's thinking time, for the response-time rules.
    if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, slowAnswerMs));
    if (mode === 'reset-before') {
      request.socket.destroy();
      return;
    }
    const error = /^status-(\d+)$/.exec(mode);
    if (error) {
      const status = Number(error[1]);
      const detail =
        status === 401
          ? {
              message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            }
          : status === 429
            ? { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' }
            : { message: 'The server had an error while processing your request.', type: 'server_error', code: null };
      return this.json(response, status, { error: { ...detail, param: null } });
    }
    if (mode === 'context-length') {
      const message =
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9211 tokens. Please reduce the length of the messages.";
      return this.json(response, 400, { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } });
    }
    if (mode === 'malformed') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"id":"chatcmpl-1","choices":[{"message":');
      return;
    }
    const model = typeof body?.model === 'string' ? body.model : 'unknown';
    if (body?.stream === true && (path.endsWith('/chat/completions') || path.endsWith('/completions')))
      return this.streamChat(request, response, body, model, mode, path.endsWith('/chat/completions'));
    if (body?.stream === true && path.endsWith('/responses')) return this.streamResponses(response, model);
    if (form) return this.answerForm(response, path, form);
    return this.answer(response, path, body, model);
  }

  private usageObject() {
    const { prompt, completion, cached } = this.usage;
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached ?? 0 } };
  }

  private json(response: ServerResponse, status: number, value: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  }

  /**
   * The multipart endpoints: transcriptions and translations answer `{text}` (translations always in
   * English); image edits and variations answer `n` pictures as `{created, data: [{url}]}`, without
   * the `revised_prompt` only dall-e-3 generations carry.
   * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
   * @see https://platform.openai.com/docs/api-reference/images/createEdit
   */
  private answerForm(response: ServerResponse, path: string, form: FormData): void {
    const hasFile = form.get('file') instanceof File;
    if (path.endsWith('/audio/transcriptions')) return this.json(response, 200, { text: hasFile ? 'hello from the audio file' : 'no file' });
    if (path.endsWith('/audio/translations')) return this.json(response, 200, { text: hasFile ? 'hello in English' : 'no file' });
    if (path.endsWith('/images/edits') || path.endsWith('/images/variations')) {
      if (!(form.get('image') instanceof File) && !(form.get('image[]') instanceof File))
        return this.json(response, 400, { error: { message: "'image' is a required property", type: 'invalid_request_error', param: 'image', code: null } });
      const count = Math.max(1, Number(form.get('n') ?? 1) || 1);
      const kind = path.endsWith('/edits') ? 'edit' : 'variation';
      return this.json(response, 200, {
        created: 1_700_000_000,
        data: Array.from({ length: count }, (_unused, index) => ({ url: `https://images.example.com/${kind}-${index + 1}.png` })),
      });
    }
    return this.json(response, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', param: null, code: null } });
  }

  private answer(response: ServerResponse, path: string, body: Record<string, unknown> | undefined, model: string): void {
    const created = 1_700_000_000;
    const usage = this.usageObject();
    if (path.endsWith('/chat/completions')) {
      return this.json(response, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: contentPieces.join('') }, finish_reason: 'stop', logprobs: null }],
        usage,
      });
    }
    if (path.endsWith('/completions'))
      return this.json(response, 200, {
        id: 'cmpl-fake',
        object: 'text_completion',
        created,
        model,
        choices: [{ index: 0, text: contentPieces.join(''), finish_reason: 'stop', logprobs: null }],
        usage,
      });
    if (path.endsWith('/embeddings')) {
      const vector = [0.25, -0.5, 0.75];
      const embedding = body?.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return this.json(response, 200, {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding }],
        model,
        usage: { prompt_tokens: this.usage.prompt, total_tokens: this.usage.prompt },
      });
    }
    if (path.endsWith('/images/generations')) {
      return this.json(response, 200, { created, data: [{ url: 'https://images.example.com/fake.png', revised_prompt: 'a fake picture' }] });
    }
    if (path.endsWith('/audio/speech')) {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.end(Buffer.from('ID3fake-mp3-bytes'));
      return;
    }
    if (path.endsWith('/moderations'))
      return this.json(response, 200, { id: 'modr-fake', model, results: [{ flagged: false, categories: {}, category_scores: {} }] });
    if (path.endsWith('/rerank'))
      return this.json(response, 200, {
        results: [
          { index: 1, relevance_score: 0.9 },
          { index: 0, relevance_score: 0.1 },
        ],
        usage: { total_tokens: this.usage.prompt },
      });
    if (path.endsWith('/responses')) {
      return this.json(response, 200, {
        id: 'resp_fake',
        object: 'response',
        created_at: created,
        status: 'completed',
        model,
        output: [
          {
            type: 'message',
            id: 'msg_fake',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: contentPieces.join(''), annotations: [] }],
          },
        ],
        usage: {
          input_tokens: this.usage.prompt,
          output_tokens: this.usage.completion,
          total_tokens: this.usage.prompt + this.usage.completion,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      });
    }
    return this.json(response, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: null } });
  }

  private streamChat(request: IncomingMessage, wire: ServerResponse, body: Record<string, unknown>, model: string, mode: FakeMode, chat: boolean): void {
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true && mode !== 'no-usage';
    const response = styledResponse(wire, this.writeStyle);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (mode === 'silent') return this.countAbortWhenClosedEarly(wire);
    const chunk = (piece: string | undefined, finish: string | null) => {
      const choice = chat
        ? { index: 0, delta: piece === undefined ? {} : { content: piece }, finish_reason: finish }
        : { index: 0, text: piece ?? '', finish_reason: finish };
      return `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: chat ? 'chat.completion.chunk' : 'text_completion', created: 1_700_000_000, model, choices: [choice], ...(includeUsage ? { usage: null } : {}) })}\n\n`;
    };
    response.write(
      chat
        ? `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`
        : '',
    );
    const pieces = mode === 'reset-mid' || mode === 'hang-after' ? contentPieces.slice(0, 3) : contentPieces;
    if (mode === 'reset-mid') {
      // Drop the connection only once the partial answer has left, so the relay sees a mid-stream reset.
      response.write(pieces.map((piece) => chunk(piece, null)).join(''), () => setImmediate(() => request.socket.destroy()));
      return;
    }
    for (const piece of pieces) response.write(chunk(piece, null));
    if (mode === 'hang-after') return this.countAbortWhenClosedEarly(wire);
    response.write(chunk(undefined, 'stop'));
    if (includeUsage)
      response.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: this.usageObject() })}\n\n`,
      );
    response.end('data: [DONE]\n\n');
  }

  private streamResponses(wire: ServerResponse, model: string): void {
    const response = styledResponse(wire, this.writeStyle);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const base = { id: 'resp_fake', object: 'response', created_at: 1_700_000_000, model, output: [] };
    response.write(event('response.created', { sequence_number: 0, response: { ...base, status: 'in_progress' } }));
    contentPieces.forEach((delta, index) =>
      response.write(event('response.output_text.delta', { sequence_number: index + 1, item_id: 'msg_fake', output_index: 0, content_index: 0, delta })),
    );
    const usage = {
      input_tokens: this.usage.prompt,
      output_tokens: this.usage.completion,
      total_tokens: this.usage.prompt + this.usage.completion,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    };
    response.end(event('response.completed', { sequence_number: 99, response: { ...base, status: 'completed', usage } }));
  }
}
