import { multipartField } from '../../../../../core/platform/multipart-form.ts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the documented error it answers. */
export const fakeDifyKeys = { invalid: 'app-invalid', rateLimited: 'app-rate-limited', quotaExhausted: 'app-quota-exhausted' } as const;

/** The id every upload gets (the recorded upload answer's). */
export const fakeUploadId = '72fa9618-8f89-4a37-9b33-7e1178a24a67';

function streamFixture(query: string): string {
  if (query.includes('Draw')) return 'agent-streaming.chunks.txt';
  if (query.includes('fail midway')) return 'stream-error.chunks.txt';
  return 'chat-streaming.chunks.txt';
}

/**
 * A Dify app's API on 127.0.0.1: POST /v1/chat-messages (blocking or streaming) and POST
 * /v1/files/upload, with the app key as a bearer token. A chat request must name a user, a query and
 * a response mode, and may reference only files uploaded before by the same user, as Dify checks.
 */
export function startFakeDify(): Promise<FakeServer> {
  const uploadedBy = new Map<string, string>();
  return startFakeServer((request, response) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === fakeDifyKeys.invalid) return sendJson(response, 401, readJsonFixture(fixtures, 'error-unauthorized.json'));
    if (key === fakeDifyKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'));
    if (key === fakeDifyKeys.quotaExhausted) return sendJson(response, 400, readJsonFixture(fixtures, 'error-provider-quota.json'));
    if (request.method === 'POST' && request.path === '/v1/files/upload') {
      const contentType = String(request.headers['content-type'] ?? '');
      const user = multipartField(request.raw, contentType, 'user');
      if (!user || !request.raw.includes('name="file"'))
        return sendJson(response, 400, { status: 400, code: 'no_file_uploaded', message: 'Please upload your file.' });
      uploadedBy.set(fakeUploadId, user);
      return sendJson(response, 201, readJsonFixture(fixtures, 'file-upload.json'));
    }
    if (request.method !== 'POST' || request.path !== '/v1/chat-messages')
      return sendJson(response, 404, { status: 404, code: 'not_found', message: 'Not Found' });
    const body = request.body ?? {};
    const query = typeof body.query === 'string' ? body.query : '';
    if (!query || typeof body.user !== 'string' || !body.user || (body.response_mode !== 'blocking' && body.response_mode !== 'streaming'))
      return sendJson(response, 400, { status: 400, code: 'invalid_param', message: 'query, user and response_mode are required' });
    for (const file of Array.isArray(body.files) ? (body.files as Record<string, unknown>[]) : []) {
      const known = file.transfer_mode === 'remote_url' ? typeof file.url === 'string' : uploadedBy.get(String(file.upload_file_id)) === body.user;
      if (!known) return sendJson(response, 400, { status: 400, code: 'invalid_param', message: `Invalid upload file id ${String(file.upload_file_id)}` });
    }
    if (body.response_mode === 'streaming') return sendEventStream(response, readStreamFixture(fixtures, streamFixture(query)));
    sendJson(response, 200, readJsonFixture(fixtures, 'chat-blocking.json'));
  });
}
