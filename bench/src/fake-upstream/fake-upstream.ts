import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { benchModels, fakeTiming, nonStreamCompletionTokens, promptTokensFor } from './behaviours.ts';
import { claudeMessageBody, geminiGenerateBody, geminiGenerateModel } from './native-wire.ts';
import { completionBody, deltaFrame, errorBody, finalFrame, usageOf } from './wire.ts';

/**
 * The fake upstream: a plain node:http server speaking OpenAI's chat-completions format (and, for the
 * native paths, Claude's `/v1/messages` and Gemini's `generateContent`, non-stream), run in its own
 * process. It tallies the usage it emitted per upstream key (the channel key the gateway sent), so the
 * harness can check that the quota a gateway charged equals what the "provider" reported, to the unit.
 *
 * Usage: node fake-upstream.ts <port>
 */

const port = Number(process.argv[2] ?? 9001);

/** key → "prompt:completion" → requests whose usage was fully written. */
const emitted = new Map<string, Map<string, number>>();
let clientAborts = 0;
let requests = 0;
let sequence = 0;

function tally(key: string, prompt: number, completion: number): void {
  let byUsage = emitted.get(key);
  if (!byUsage) emitted.set(key, (byUsage = new Map()));
  const usageKey = `${prompt}:${completion}`;
  byUsage.set(usageKey, (byUsage.get(usageKey) ?? 0) + 1);
}

/** The channel key as each vendor's client sends it: OpenAI's bearer, Claude's `x-api-key`, Gemini's `x-goog-api-key`. */
function upstreamKey(request: IncomingMessage): string {
  const authorization = request.headers.authorization ?? '';
  if (authorization) return authorization.startsWith('Bearer ') ? authorization.slice(7) : authorization;
  const vendorKey = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '';
  return Array.isArray(vendorKey) ? (vendorKey[0] ?? '') : vendorKey;
}

const modelPattern = /"model"\s*:\s*"([^"]*)"/;
const userPattern = /"user"\s*:\s*"([^"]*)"/;
const streamPattern = /"stream"\s*:\s*true/;

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function stream(response: ServerResponse, key: string, model: string, prompt: number, intervalMs: number, cutAfter = 0): void {
  const id = `chatcmpl-bench${++sequence}`;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const started = performance.now();
  let index = 0;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  response.once('close', () => {
    if (timer) clearTimeout(timer);
    if (!finished) clientAborts += 1;
  });
  const writeNext = () => {
    timer = undefined;
    if (response.destroyed) return;
    do {
      index += 1;
      if (cutAfter > 0 && index > cutAfter) {
        finished = true;
        response.socket?.destroy();
        return;
      }
      if (index < fakeTiming.streamChunks) {
        response.write(deltaFrame(id, model, index));
      } else {
        finished = true;
        response.end(finalFrame(id, model, usageOf(prompt, fakeTiming.streamChunks)));
        tally(key, prompt, fakeTiming.streamChunks);
        return;
      }
    } while (intervalMs === 0);
    // Aim at absolute times (start + n × interval) so timer lateness never accumulates over a stream.
    timer = setTimeout(writeNext, Math.max(0, started + index * intervalMs - performance.now()));
  };
  writeNext();
}

function complete(response: ServerResponse, key: string, model: string, prompt: number): void {
  const body = completionBody(`chatcmpl-bench${++sequence}`, model, usageOf(prompt, nonStreamCompletionTokens));
  sendJson(response, 200, body);
  tally(key, prompt, nonStreamCompletionTokens);
}

function relay(request: IncomingMessage, response: ServerResponse, body: string): void {
  requests += 1;
  const model = modelPattern.exec(body)?.[1] ?? '';
  const wantsStream = streamPattern.test(body);
  // The OpenAI `user` field, when present, keeps one caller's usage apart from the rest of the run.
  const marker = userPattern.exec(body)?.[1];
  const key = marker ? `${upstreamKey(request)}#${marker}` : upstreamKey(request);
  const prompt = promptTokensFor(Buffer.byteLength(body));
  switch (model) {
    case benchModels.slow: {
      const thinking = setTimeout(() => {
        if (response.destroyed) return;
        if (wantsStream) stream(response, key, model, prompt, 0);
        else complete(response, key, model, prompt);
      }, fakeTiming.slowLatencyMs);
      // A caller gone while the upstream still thinks is a release too (nothing was sent yet).
      response.once('close', () => {
        if (response.headersSent) return;
        clearTimeout(thinking);
        clientAborts += 1;
      });
      return;
    }
    case benchModels.paced:
      if (wantsStream) stream(response, key, model, prompt, fakeTiming.pacedIntervalMs);
      else complete(response, key, model, prompt);
      return;
    case benchModels.error429:
      sendJson(response, 429, errorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'));
      return;
    case benchModels.error500:
      sendJson(response, 500, errorBody('The server had an error while processing your request.', 'server_error', 'server_error'));
      return;
    case benchModels.errorCut:
      stream(response, key, model, prompt, fakeTiming.pacedIntervalMs, fakeTiming.cutAfterChunks);
      return;
    case benchModels.errorHang:
      response.once('close', () => (clientAborts += 1));
      return;
    default:
      if (wantsStream) stream(response, key, model, prompt, 0);
      else complete(response, key, model, prompt);
  }
}

/**
 * The native paths answer at once in the vendor's shape; usage is tallied as prompt:completion like the
 * OpenAI answers', so the reconciliation reads one tally whatever the format.
 */
function relayNative(request: IncomingMessage, response: ServerResponse, body: string, vendor: 'claude' | 'gemini', model: string): void {
  requests += 1;
  const key = upstreamKey(request);
  const prompt = promptTokensFor(Buffer.byteLength(body));
  const answer =
    vendor === 'claude'
      ? claudeMessageBody(`msg_bench${++sequence}`, model, prompt, nonStreamCompletionTokens)
      : geminiGenerateBody(`bench${++sequence}`, model, prompt, nonStreamCompletionTokens);
  sendJson(response, 200, answer);
  tally(key, prompt, nonStreamCompletionTokens);
}

function route(request: IncomingMessage, response: ServerResponse, body: string): void {
  const url = request.url ?? '';
  if (url === '/v1/messages') return relayNative(request, response, body, 'claude', modelPattern.exec(body)?.[1] ?? '');
  const geminiModel = geminiGenerateModel(url);
  if (geminiModel !== undefined) return relayNative(request, response, body, 'gemini', geminiModel);
  relay(request, response, body);
}

function stats(): string {
  const usage: Record<string, Record<string, number>> = {};
  for (const [key, byUsage] of emitted) usage[key] = Object.fromEntries(byUsage);
  const cpu = process.cpuUsage();
  return JSON.stringify({ requests, clientAborts, usage, cpuMicros: cpu.user + cpu.system });
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/__stats') return sendJson(response, 200, stats());
  if (request.method === 'POST' && request.url === '/__reset') {
    emitted.clear();
    clientAborts = 0;
    requests = 0;
    return sendJson(response, 200, '{}');
  }
  if (request.method === 'GET' && request.url?.endsWith('/models')) {
    return sendJson(
      response,
      200,
      JSON.stringify({ object: 'list', data: Object.values(benchModels).map((id) => ({ id, object: 'model', created: 0, owned_by: 'bench' })) }),
    );
  }
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => route(request, response, Buffer.concat(parts).toString('utf8')));
});
// Gateways keep pooled connections open between phases; do not drop them under their feet.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.requestTimeout = 0;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
