import { readFileSync } from 'node:fs';
import { parseSseText } from '@switchboard/contracts';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer } from '../../../providers/claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** A stream recorded in `conformance/recorded/<vendor>/`, named as the functions here take it. */
export function fromRecorded(vendor: string, name: string): string {
  return `../../recorded/${vendor}/${name}`;
}

/** A recorded answer's exact text (a name in `__fixtures__/`, or `fromRecorded`'s). */
export function recordedText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

/** A recorded JSON answer, parsed. */
export function recordedJson(name: string): Record<string, unknown> {
  const parsed = safeParseJson(recordedText(name));
  if (!parsed.ok) throw new Error(`fixture ${name}: ${parsed.error}`);
  return parsed.value as Record<string, unknown>;
}

/**
 * A recorded stream (`*.chunks.txt`: one event's JSON data per line, as the AI SDK's fixtures keep
 * them) as the parsed data of each event, in order.
 */
export function recordedEvents(name: string): unknown[] {
  return recordedText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed = safeParseJson(line);
      if (!parsed.ok) throw new Error(`fixture ${name}: ${parsed.error}`);
      return parsed.value;
    });
}

/** The data of every event of a server-sent-event body, parsed. */
export function eventsOf(body: string): unknown[] {
  return parseSseText(body).map((event) => {
    const parsed = safeParseJson(event.data);
    return parsed.ok ? parsed.value : event.data;
  });
}

/**
 * The recorded stream on the wire as the vendor frames it: Anthropic and OpenAI name each event
 * (`event: <type>`), Google sends data lines alone.
 */
function framed(name: string, vendor: Vendor): string {
  return recordedText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      if (vendor === 'google') return `data: ${line}\r\n\r\n`;
      const type = (safeParseJson(line) as { ok: boolean; value?: { type?: unknown } }).value?.type;
      return `event: ${String(type)}\ndata: ${line}\n\n`;
    })
    .join('');
}

/** Anthropic's Messages API, Google's Gemini API, OpenAI's Responses API. */
export type Vendor = 'anthropic' | 'google' | 'openai';
const vendorPaths = { anthropic: '/v1/messages', openai: '/v1/responses' } as const;

export interface RecordedUpstream extends FakeServer {
  /** The recording the next requests are answered with: `<name>.json` whole, `<name>.chunks.txt` streamed. */
  play(name: string): void;
  /**
   * The next stream sends only the recording's first `events` events and stays open until `cut`
   * (a vendor that breaks off mid-answer, at a moment the test chooses).
   */
  playUntilCut(name: string, events: number): void;
  /** Breaks every held stream's connection (no end of body: the relay sees a cut). */
  cut(): void;
}

/**
 * Anthropic's Messages API (`POST /v1/messages`), Gemini's (`POST /{version}/models/{model}:{method}`)
 * or OpenAI's Responses API (`POST /v1/responses`) on 127.0.0.1, answering with the recording chosen
 * by `play`: the JSON when the request does not stream, the event stream when it does (`stream: true`;
 * Google: `streamGenerateContent`).
 */
export async function startRecordedUpstream(vendor: Vendor): Promise<RecordedUpstream> {
  let playing = '';
  let heldEvents: number | undefined;
  const held: FakeResponse[] = [];
  const server = await startFakeServer((request, response) => {
    const streamed = vendor === 'google' ? request.path.endsWith(':streamGenerateContent') : request.body?.stream === true;
    const path = vendor === 'google' ? /^\/v1(beta)?\/models\/[^/:]+:(stream)?[gG]enerateContent$/.test(request.path) : request.path === vendorPaths[vendor];
    if (request.method !== 'POST' || !path) return sendJson(response, 404, { error: { message: `Not found: ${request.path}` } });
    if (streamed && heldEvents !== undefined) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = framed(`${playing}.chunks.txt`, vendor).split(/(?<=\r?\n\r?\n)/);
      response.write(events.slice(0, heldEvents).join(''));
      held.push(response);
      return;
    }
    if (streamed) return sendEventStream(response, framed(`${playing}.chunks.txt`, vendor));
    const text = recordedText(`${playing}.json`);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  });
  return {
    ...server,
    play(name) {
      playing = name;
      heldEvents = undefined;
    },
    playUntilCut(name, events) {
      playing = name;
      heldEvents = events;
    },
    cut() {
      for (const response of held.splice(0)) response.destroy();
    },
  };
}
