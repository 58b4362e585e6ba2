import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the documented error it answers. */
export const fakeGeminiKeys = { invalid: 'gemini-invalid-key', exhausted: 'gemini-exhausted', failsMidStream: 'gemini-fails-mid-stream' } as const;

/** Google ends SSE lines with CRLF (the recordings are kept with LF, for reading). */
function googleEventStream(name: string): string {
  return readStreamFixture(fixtures, name).replace(/\r?\n/g, '\r\n');
}

/**
 * Answers one Gemini method from the recorded fixtures: a function-calling turn when the request
 * declares tools, a text turn otherwise; the recorded SSE stream for streamGenerateContent; one
 * vector per input for batchEmbedContents.
 */
export function answerGemini(request: ReceivedRequest, response: FakeResponse, method: string): void {
  if (method === 'streamGenerateContent') {
    if (request.query.get('alt') !== 'sse')
      return sendJson(response, 400, { error: { code: 400, message: 'this fake only streams with alt=sse', status: 'INVALID_ARGUMENT' } });
    return sendEventStream(response, googleEventStream('stream-generate-content.chunks.txt'));
  }
  if (method === 'generateContent') {
    const withTools = Array.isArray(request.body?.tools) && request.body.tools.length > 0;
    return sendJson(response, 200, readJsonFixture(fixtures, withTools ? 'generate-content-function-call.json' : 'generate-content-text.json'));
  }
  if (method === 'batchEmbedContents') {
    const count = Array.isArray(request.body?.requests) ? request.body.requests.length : 0;
    return sendJson(response, 200, { embeddings: Array.from({ length: count }, (_unused, index) => ({ values: [index, 0.5, -0.25] })) });
  }
  sendJson(response, 404, { error: { code: 404, message: `method ${method} not found`, status: 'NOT_FOUND' } });
}

/** The Gemini API on 127.0.0.1: POST /{version}/models/{model}:{method}, key in `x-goog-api-key`. */
export function startFakeGemini(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const match = /^\/(v1|v1beta)\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match?.[3])
      return sendJson(response, 404, { error: { code: 404, message: `Not found: ${request.path}`, status: 'NOT_FOUND' } });
    const key = String(request.headers['x-goog-api-key'] ?? request.query.get('key') ?? '');
    if (key === fakeGeminiKeys.invalid) return sendJson(response, 400, readJsonFixture(fixtures, 'error-api-key-invalid.json'));
    if (key === fakeGeminiKeys.exhausted) return sendJson(response, 429, readJsonFixture(fixtures, 'error-resource-exhausted.json'));
    if (key === fakeGeminiKeys.failsMidStream && match[3] === 'streamGenerateContent')
      return sendEventStream(response, googleEventStream('stream-error-overloaded.chunks.txt'));
    answerGemini(request, response, match[3]);
  });
}
