import { createHash, createHmac } from 'node:crypto';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Channel keys `AppId|SecretId|SecretKey` the fake knows. */
export const fakeTencentKeys = {
  good: '1250000000|AKIDfakeGood0000000000000000000000|fakeGoodSecretKey000000000000000',
  backup: '1250000000|AKIDfakeBackup00000000000000000000|fakeBackupSecretKey0000000000000',
  /** A known SecretId signed with the wrong SecretKey: AuthFailure.SignatureFailure. */
  wrongSecret: '1250000000|AKIDfakeGood0000000000000000000000|notTheSecretKey',
  /** Signs correctly, but every call is refused with RequestLimitExceeded. */
  rateLimited: '1250000000|AKIDfakeLimited000000000000000000|fakeLimitedSecretKey000000000000',
  /** Signs correctly, but the account is in arrears. */
  inArrears: '1250000000|AKIDfakeArrears000000000000000000|fakeArrearsSecretKey000000000000',
} as const;

const secretOf = (key: string): [string, string] => {
  const [, id = '', secret = ''] = key.split('|');
  return [id, secret];
};
const secrets = new Map([fakeTencentKeys.good, fakeTencentKeys.backup, fakeTencentKeys.rateLimited, fakeTencentKeys.inArrears].map(secretOf));
const refusalByKey = new Map([
  [secretOf(fakeTencentKeys.rateLimited)[0], 'error-request-limit.json'],
  [secretOf(fakeTencentKeys.inArrears)[0], 'error-arrears.json'],
]);

/** Models the fake serves. */
const chatModels = new Set(['hunyuan-lite', 'hunyuan-standard', 'hunyuan-turbo', 'hunyuan-functioncall']);

const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();

/**
 * Verifies TC3-HMAC-SHA256 as Tencent's gateway does, written apart from the provider's signer so
 * that a mistake there shows up here: the headers named in SignedHeaders, as received, the body's
 * hash, the date of X-TC-Timestamp, and the time within five minutes of now.
 */
function authFailure(request: ReceivedRequest, nowSeconds: number): string | undefined {
  const authorization = String(request.headers.authorization ?? '');
  const match = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!match) return 'error-signature-failure.json';
  const [, secretId = '', date = '', service = '', signedHeaders = '', signature = ''] = match;
  const secret = secrets.get(secretId);
  if (secret === undefined) return 'error-secret-id-not-found.json';
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return 'error-signature-expire.json';
  const names = signedHeaders.split(';');
  if (!names.includes('content-type') || !names.includes('host')) return 'error-signature-failure.json';
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const canonicalRequest = `${request.method}\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${sha256Hex(request.raw)}`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256Hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${secret}`, date), service), 'tc3_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  const expectedDate = new Date(timestamp * 1000).toISOString().slice(0, 10);
  return expected === signature && date === expectedDate && service === 'hunyuan' ? undefined : 'error-signature-failure.json';
}

function answerChat(request: ReceivedRequest, response: FakeResponse): void {
  const body = request.body ?? {};
  if (!chatModels.has(String(body.Model ?? ''))) return sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-model.json'));
  const withTools = Array.isArray(body.Tools) && body.Tools.length > 0;
  const lastQuestion = Array.isArray(body.Messages) ? String((body.Messages.at(-1) as { Content?: unknown } | undefined)?.Content ?? '') : '';
  if (body.Stream === true) {
    const stream = withTools ? 'chat-tool-call.chunks.txt' : lastQuestion.includes('unsafe') ? 'chat-sensitive.chunks.txt' : 'chat-stream.chunks.txt';
    return sendEventStream(response, readStreamFixture(fixtures, stream));
  }
  sendJson(response, 200, readJsonFixture(fixtures, withTools ? 'chat-tool-call.json' : 'chat-completion.json'));
}

/**
 * Tencent Cloud API 3.0 for Hunyuan on 127.0.0.1: POST / with the action in X-TC-Action, version
 * 2023-09-01, signed with TC3-HMAC-SHA256. As Tencent does, it answers every error with HTTP 200
 * and `Response.Error`, also to a streamed request.
 */
export function startFakeTencent(nowSeconds: () => number = () => Math.floor(Date.now() / 1000)): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/') return sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-action.json'));
    const failed = authFailure(request, nowSeconds());
    if (failed) return sendJson(response, 200, readJsonFixture(fixtures, failed));
    const refused = refusalByKey.get(/Credential=([^/]+)/.exec(String(request.headers.authorization))?.[1] ?? '');
    if (refused) return sendJson(response, 200, readJsonFixture(fixtures, refused));
    if (request.headers['x-tc-version'] !== '2023-09-01') return sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-action.json'));
    const action = request.headers['x-tc-action'];
    if (action === 'ChatCompletions') return answerChat(request, response);
    if (action === 'GetEmbedding') return sendJson(response, 200, readJsonFixture(fixtures, 'embeddings.json'));
    sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-action.json'));
  });
}
