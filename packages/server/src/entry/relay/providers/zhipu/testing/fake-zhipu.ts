import { createHmac, timingSafeEqual } from 'node:crypto';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Channel keys (`id.secret`) the fake knows, by what it does with them. */
export const fakeZhipuKeys = {
  good: 'a1b2c3d4e5f6.goodSecretValue',
  backup: 'b2c3d4e5f6a1.backupSecretValue',
  /** A known id signed with the wrong secret: the token does not verify. */
  wrongSecret: 'a1b2c3d4e5f6.notTheSecret',
  rateLimited: 'c3d4e5f6a1b2.limitedSecretValue',
} as const;

const secrets = new Map(
  [fakeZhipuKeys.good, fakeZhipuKeys.backup, fakeZhipuKeys.rateLimited].map((key) => {
    const [id = '', secret = ''] = key.split('.');
    return [id, secret] as const;
  }),
);
const rateLimitedId = fakeZhipuKeys.rateLimited.split('.')[0];

/** Words that make the fake refuse, as Zhipu's content check does (1301, answered with HTTP 200). */
export const fakeZhipuRefusedWord = 'forbidden-topic';
/** A prompt that makes a stream end with an `error` event. */
export const fakeZhipuStreamErrorWord = 'fail-midway';

const decodeJson = (part: string | undefined): Record<string, unknown> | undefined => {
  const parsed = safeParseJson(Buffer.from(part ?? '', 'base64url').toString('utf8'));
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined;
};

/**
 * The key id a v3 token was signed for, when it verifies: HS256 with the id's secret, Zhipu's header,
 * and an expiry in milliseconds still ahead.
 */
export function verifyZhipuToken(token: string, nowMs: number): string | undefined {
  const [header, payload, signature] = token.split('.');
  const headerJson = decodeJson(header);
  const claims = decodeJson(payload);
  if (headerJson?.alg !== 'HS256' || headerJson.sign_type !== 'SIGN' || typeof claims?.api_key !== 'string') return undefined;
  const secret = secrets.get(claims.api_key);
  if (!secret || typeof claims.exp !== 'number' || claims.exp <= nowMs || typeof claims.timestamp !== 'number') return undefined;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature ?? '', 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? claims.api_key : undefined;
}

/** Zhipu's v3 model API on 127.0.0.1: `/api/paas/v3/model-api/{model}/invoke|sse-invoke`. */
export function startFakeZhipu(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const route = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/.exec(request.path);
    if (request.method !== 'POST' || !route) return sendJson(response, 404, { code: 1222, msg: `API ${request.path} 不存在`, success: false });
    const keyId = verifyZhipuToken(String(request.headers['authorization'] ?? ''), Date.now());
    if (!keyId) return sendJson(response, 401, readJsonFixture(fixtures, 'error-authentication.json'));
    if (keyId === rateLimitedId) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'));
    if (!Array.isArray(request.body?.prompt)) return sendJson(response, 400, { code: 1214, msg: 'prompt参数非法。请检查文档。', success: false });
    const raw = request.raw.toString('utf8');
    if (raw.includes(fakeZhipuRefusedWord)) return sendJson(response, 200, readJsonFixture(fixtures, 'error-content-policy.json'));
    if (route[2] === 'invoke') return sendJson(response, 200, readJsonFixture(fixtures, 'invoke-text.json'));
    const fixture = raw.includes(fakeZhipuStreamErrorWord) ? 'sse-invoke-error.chunks.txt' : 'sse-invoke-text.chunks.txt';
    sendEventStream(response, readStreamFixture(fixtures, fixture));
  });
}
