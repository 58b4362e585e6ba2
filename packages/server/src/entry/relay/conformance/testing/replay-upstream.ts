import { readFileSync } from 'node:fs';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer, type ReceivedRequest } from '../../providers/claude/testing/fake-server.ts';

/** How a vendor frames its stream: the recorded files hold one event's JSON per line, framing aside. */
export type VendorDialect = 'anthropic' | 'openai' | 'gemini';

/** A recorded answer: the plain body and/or the stream, files of one vendor folder under `recorded/`. */
export interface RecordedAnswer {
  readonly dialect: VendorDialect;
  /** The folder under `recorded/` (one per vendor, with its SOURCES.md). */
  readonly vendor: string;
  /** `*.json`: the whole answer body. */
  readonly plain?: string;
  /** `*.chunks.txt`: the stream's events, one JSON per line. */
  readonly stream?: string;
}

const recorded = new URL('../recorded/', import.meta.url);

function readRecorded(vendor: string, file: string): string {
  return readFileSync(new URL(`${vendor}/${file}`, recorded), 'utf8');
}

/**
 * The stream as the vendor puts it on the wire: Anthropic names each event (`event:` is the data's
 * `type`), OpenAI-format vendors end with `data: [DONE]`, Gemini (`alt=sse`) separates events with
 * CRLF pairs.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function framedStream(dialect: VendorDialect, lines: string): string {
  const events = lines.split('\n').filter((line) => line.trim());
  switch (dialect) {
    case 'anthropic':
      return events
        .map((line) => {
          const parsed = safeParseJson(line);
          const type = parsed.ok ? (parsed.value as { type?: unknown }).type : undefined;
          return `event: ${typeof type === 'string' ? type : 'unknown'}\ndata: ${line}\n\n`;
        })
        .join('');
    case 'openai':
      return `${events.map((line) => `data: ${line}\n\n`).join('')}data: [DONE]\n\n`;
    case 'gemini':
      return events.map((line) => `data: ${line}\r\n\r\n`).join('');
  }
}

/** The model a request names: in the body (Anthropic, OpenAI) or the path (Gemini's `models/{model}:…`). */
function requestedModel(request: ReceivedRequest): string {
  if (typeof request.body?.model === 'string') return request.body.model;
  return /\/models\/([^/:]+):/.exec(request.path)?.[1] ?? '';
}

function wantsStream(request: ReceivedRequest): boolean {
  return request.body?.stream === true || request.path.endsWith(':streamGenerateContent');
}

/**
 * One upstream on 127.0.0.1 that replays recorded vendor answers, chosen by the model the request
 * names (each conformance case is a model of its own): the plain body, or the stream when the
 * request streams, framed as that vendor frames it. A model with no recording gets the vendor's 404.
 */
export function startReplayUpstream(answers: ReadonlyMap<string, RecordedAnswer>): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const model = requestedModel(request);
    const answer = answers.get(model);
    const file = wantsStream(request) ? answer?.stream : answer?.plain;
    if (!answer || !file) {
      sendJson(response, 404, { error: { message: `no recorded answer for ${model}`, type: 'not_found_error' } });
      return;
    }
    const text = readRecorded(answer.vendor, file);
    if (file.endsWith('.json')) {
      // The recorded bytes, as the vendor sent them.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
      return;
    }
    sendEventStream(response, framedStream(answer.dialect, text));
  });
}
