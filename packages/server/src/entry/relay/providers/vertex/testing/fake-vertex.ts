import { createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';
import { answerMessages } from '../../claude/testing/fake-claude.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { answerGemini } from '../../gemini/testing/fake-gemini.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

export interface FakeVertex extends FakeServer {
  /** A service-account key JSON the fake's token endpoint accepts (token_uri points at the fake). */
  serviceAccount(options?: { projectId?: string; trusted?: boolean }): string;
  /** Access tokens issued so far. */
  readonly tokensIssued: () => number;
  /**
   * Holds token exchanges: each one that arrives from now on waits until `release` (then answers as
   * usual). `arrived` settles once the first held exchange reached the fake.
   */
  holdTokenExchanges(): { arrived: Promise<void>; release: () => void };
}

const decodePart = (part: string): Record<string, unknown> => {
  const parsed = safeParseJson(Buffer.from(part, 'base64url').toString('utf8'));
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : {};
};

/** Projects whose token exchange succeeds but whose model calls the fake refuses, as Vertex does. */
export const fakeVertexProjects = { exhausted: 'exhausted-project', denied: 'denied-project', unauthenticated: 'unauthenticated-project' } as const;

/**
 * Vertex's refusals of a model call, recorded: quota (429), a service account without the Vertex AI
 * User role (403) and credentials revoked after the token was issued (401).
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429
 * @see https://cloud.google.com/apis/design/errors
 */
const projectRefusals: Readonly<Record<string, string>> = {
  [fakeVertexProjects.exhausted]: 'error-resource-exhausted.json',
  [fakeVertexProjects.denied]: 'error-permission-denied.json',
  [fakeVertexProjects.unauthenticated]: 'error-unauthenticated.json',
};

/** Google's error body `{error: {code, message, status}}` answered with its own code as the status. */
function sendGoogleError(response: FakeResponse, fixture: string): void {
  const body = readJsonFixture(fixtures, fixture) as { error: { code: number } };
  sendJson(response, body.error.code, body);
}

/**
 * Claude on Vertex answers in the Messages format (ids `msg_vrtx_…`): the recorded Vertex text turn,
 * and for a tool-use turn Anthropic's recording, which Vertex passes through unchanged.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
 */
function answerClaude(request: ReceivedRequest, response: FakeResponse, stream: boolean): void {
  if (Array.isArray(request.body?.tools) && request.body.tools.length > 0) return answerMessages(request, response, 'vertex', stream);
  if (stream) return sendEventStream(response, readStreamFixture(fixtures, 'stream-raw-predict-text.chunks.txt'));
  sendJson(response, 200, readJsonFixture(fixtures, 'raw-predict-text.json'));
}

/**
 * Google's OAuth token endpoint and Vertex AI on 127.0.0.1. The token endpoint verifies the JWT
 * bearer assertion (RS256 over header.claims with the account's public key, audience, scope) as
 * Google does; model calls need one of the issued tokens.
 * @see https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */
export async function startFakeVertex(): Promise<FakeVertex> {
  const trustedKeys = new Map<string, KeyObject>();
  const issued = new Set<string>();
  let url = '';
  let hold: { arrive: () => void; released: Promise<void> } | undefined;

  const exchange = (request: ReceivedRequest, respond: (status: number, body: unknown) => void) => {
    const form = new URLSearchParams(request.raw.toString('utf8'));
    const assertion = form.get('assertion') ?? '';
    const [header = '', claims = '', signature = ''] = assertion.split('.');
    const claimSet = decodePart(claims);
    const publicKey = trustedKeys.get(String(claimSet.iss));
    const signatureValid =
      publicKey !== undefined && createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, 'base64url'));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !signatureValid || decodePart(header).alg !== 'RS256') {
      return respond(400, readJsonFixture(fixtures, 'token-error-invalid-grant.json'));
    }
    if (claimSet.aud !== `${url}/token` || claimSet.scope !== 'https://www.googleapis.com/auth/cloud-platform')
      return respond(400, readJsonFixture(fixtures, 'token-error-invalid-scope.json'));
    // The recorded answer, with a token of its own each time so tests can tell exchanges apart.
    const token = `ya29.fake-${issued.size + 1}`;
    issued.add(token);
    respond(200, { ...(readJsonFixture(fixtures, 'token-response.json') as object), access_token: token });
  };

  const server = await startFakeServer(async (request, response) => {
    if (request.path === '/token') {
      if (hold) {
        hold.arrive();
        await hold.released;
      }
      return exchange(request, (status, body) => sendJson(response, status, body));
    }
    const bearer = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!issued.has(bearer)) return sendGoogleError(response, 'error-unauthenticated.json');
    const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match?.[5]) return sendGoogleError(response, 'error-not-found.json');
    const refusal = projectRefusals[match[1] ?? ''];
    if (refusal) return sendGoogleError(response, refusal);
    if (match[3] === 'google') return answerGemini(request, response, match[5]);
    // Claude model errors come back in Anthropic's shape.
    if (request.body?.anthropic_version !== 'vertex-2023-10-16') return sendJson(response, 400, readJsonFixture(fixtures, 'error-anthropic-version.json'));
    answerClaude(request, response, match[5] === 'streamRawPredict');
  });
  url = server.url;

  return {
    ...server,
    tokensIssued: () => issued.size,
    holdTokenExchanges() {
      const arrived = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      hold = { arrive: arrived.resolve, released: released.promise };
      return {
        arrived: arrived.promise,
        release: () => {
          hold = undefined;
          released.resolve();
        },
      };
    },
    serviceAccount(options = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const email = `relay-${trustedKeys.size + 1}@${options.projectId ?? 'fake-project'}.iam.gserviceaccount.com`;
      if (options.trusted !== false) trustedKeys.set(email, publicKey);
      return JSON.stringify({
        type: 'service_account',
        project_id: options.projectId ?? 'fake-project',
        private_key_id: 'key-1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: email,
        token_uri: `${url}/token`,
      });
    },
  };
}
