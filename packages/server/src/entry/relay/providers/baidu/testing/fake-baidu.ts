import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Client credentials the fake's token endpoint knows, as `APIKey|SecretKey` channel keys. */
export const fakeBaiduKeys = {
  good: 'baidu-api-key|baidu-secret-key',
  backup: 'baidu-backup-key|baidu-backup-secret',
  /** Its token works, but every call is refused with Baidu's QPS limit (error 18). */
  rateLimited: 'baidu-limited-key|baidu-limited-secret',
  /** An API key Baidu does not know: the token endpoint answers `invalid_client`. */
  unknown: 'baidu-unknown-key|baidu-unknown-secret',
} as const;

const secrets = new Map<string, string>([fakeBaiduKeys.good, fakeBaiduKeys.backup, fakeBaiduKeys.rateLimited].map((key) => key.split('|') as [string, string]));
const rateLimitedClient = fakeBaiduKeys.rateLimited.split('|')[0];

/** Endpoints the fake serves (Baidu's names for ERNIE-4.0-8K, ERNIE-3.5-8K, ERNIE-Speed-8K, Embedding-V1). */
const chatEndpoints = new Set(['completions_pro', 'completions', 'ernie_speed']);
const embeddingEndpoints = new Set(['embedding-v1']);

export interface FakeBaidu extends FakeServer {
  /** Access tokens issued so far. */
  tokensIssued(): number;
  /** Makes every token issued so far invalid, as an expiry or a revocation does (calls then get error 110). */
  revokeTokens(): void;
}

const wenxinPrefix = '/rpc/2.0/ai_custom/v1/wenxinworkshop/';

/** The recorded answer for a chat body: Baidu's refusal when the last question is unsafe, else the plain turn. */
function chatFixture(body: Record<string, unknown> | undefined): string {
  const messages = Array.isArray(body?.messages) ? (body.messages as { content?: unknown }[]) : [];
  return String(messages.at(-1)?.content ?? '').includes('unsafe') ? 'chat-unsafe-input.json' : 'chat-completion.json';
}

/**
 * Baidu's Wenxin Workshop on 127.0.0.1: the OAuth token endpoint and the chat and embeddings
 * endpoints with `?access_token=`. As Baidu does, it answers every error with HTTP 200 and
 * `error_code` (the token endpoint with 401 and `invalid_client`), and refuses a message list of
 * even length (turns must alternate and end with the user).
 */
export async function startFakeBaidu(): Promise<FakeBaidu> {
  const tokens = new Map<string, string>();
  let issued = 0;

  const issueToken = (request: ReceivedRequest, response: FakeResponse) => {
    const clientId = request.query.get('client_id') ?? '';
    const secret = secrets.get(clientId);
    if (request.query.get('grant_type') !== 'client_credentials' || secret === undefined)
      return sendJson(response, 401, readJsonFixture(fixtures, 'token-invalid-client.json'));
    if (request.query.get('client_secret') !== secret) return sendJson(response, 401, readJsonFixture(fixtures, 'token-bad-secret.json'));
    issued += 1;
    const token = `24.${issued.toString(16).padStart(32, '0')}.2592000.1485516651.282335-8574074`;
    tokens.set(token, clientId);
    sendJson(response, 200, { ...(readJsonFixture(fixtures, 'token.json') as object), access_token: token });
  };

  const server = await startFakeServer((request, response) => {
    if (request.method === 'POST' && request.path === '/oauth/2.0/token') return issueToken(request, response);
    if (request.method !== 'POST' || !request.path.startsWith(wenxinPrefix))
      return sendJson(response, 200, readJsonFixture(fixtures, 'error-unsupported-method.json'));
    const client = tokens.get(request.query.get('access_token') ?? '');
    if (client === undefined) return sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-token.json'));
    if (client === rateLimitedClient) return sendJson(response, 200, readJsonFixture(fixtures, 'error-qps-limit.json'));
    const [kind, endpoint] = request.path.slice(wenxinPrefix.length).split('/');
    if (kind === 'embeddings' && embeddingEndpoints.has(endpoint ?? '')) return sendJson(response, 200, readJsonFixture(fixtures, 'embeddings.json'));
    if (kind !== 'chat' || !chatEndpoints.has(endpoint ?? '')) return sendJson(response, 200, readJsonFixture(fixtures, 'error-unsupported-method.json'));
    const messages = Array.isArray(request.body?.messages) ? request.body.messages : [];
    if (messages.length % 2 === 0) return sendJson(response, 200, readJsonFixture(fixtures, 'error-messages-odd.json'));
    if (request.body?.stream === true) return sendEventStream(response, readStreamFixture(fixtures, 'chat-stream.chunks.txt'));
    sendJson(response, 200, readJsonFixture(fixtures, chatFixture(request.body)));
  });
  return {
    ...server,
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
  };
}
