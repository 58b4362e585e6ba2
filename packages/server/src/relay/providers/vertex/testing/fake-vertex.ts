import { createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { safeParseJson } from '../../../../platform/safe-json.ts';
import { answerMessages } from '../../claude/testing/fake-claude.ts';
import { sendJson, startFakeServer, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';
import { answerGemini } from '../../gemini/testing/fake-gemini.ts';

export interface FakeVertex extends FakeServer {
  /** A service-account key JSON the fake's token endpoint accepts (token_uri points at the fake). */
  serviceAccount(options?: { projectId?: string; trusted?: boolean }): string;
  /** Access tokens issued so far. */
  readonly tokensIssued: () => number;
}

const decodePart = (part: string): Record<string, unknown> => {
  const parsed = safeParseJson(Buffer.from(part, 'base64url').toString('utf8'));
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : {};
};

/** Projects whose token exchange succeeds but whose model calls the fake refuses, as Vertex does. */
export const fakeVertexProjects = { exhausted: 'exhausted-project', denied: 'denied-project', unauthenticated: 'unauthenticated-project' } as const;

/**
 * Vertex's refusals of a model call: quota (429), a service account without the Vertex AI User role
 * (403) and credentials revoked after the token was issued (401).
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429
 */
function projectRefusal(project: string, path: string): { error: { code: number; message: string; status: string; details?: unknown[] } } | undefined {
  const resource = path.replace(/^\/v1\//, '').replace(/:\w+$/, '');
  if (project === fakeVertexProjects.exhausted) {
    return { error: { code: 429, message: 'Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.', status: 'RESOURCE_EXHAUSTED' } };
  }
  if (project === fakeVertexProjects.denied) {
    return {
      error: {
        code: 403,
        message: `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
        status: 'PERMISSION_DENIED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'IAM_PERMISSION_DENIED', domain: 'aiplatform.googleapis.com', metadata: { permission: 'aiplatform.endpoints.predict', resource } }],
      },
    };
  }
  if (project === fakeVertexProjects.unauthenticated) {
    return { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', status: 'UNAUTHENTICATED' } };
  }
  return undefined;
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

  const exchange = (request: ReceivedRequest, respond: (status: number, body: unknown) => void) => {
    const form = new URLSearchParams(request.raw.toString('utf8'));
    const assertion = form.get('assertion') ?? '';
    const [header = '', claims = '', signature = ''] = assertion.split('.');
    const claimSet = decodePart(claims);
    const publicKey = trustedKeys.get(String(claimSet.iss));
    const signatureValid = publicKey !== undefined && createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, 'base64url'));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !signatureValid || decodePart(header).alg !== 'RS256') {
      return respond(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    if (claimSet.aud !== `${url}/token` || claimSet.scope !== 'https://www.googleapis.com/auth/cloud-platform') return respond(400, { error: 'invalid_scope', error_description: 'Invalid audience or scope.' });
    const token = `ya29.fake-${issued.size + 1}`;
    issued.add(token);
    respond(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  };

  const server = await startFakeServer((request, response) => {
    if (request.path === '/token') return exchange(request, (status, body) => sendJson(response, status, body));
    const bearer = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!issued.has(bearer)) return sendJson(response, 401, { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.', status: 'UNAUTHENTICATED' } });
    const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match?.[5]) return sendJson(response, 404, { error: { code: 404, message: `Not found: ${request.path}`, status: 'NOT_FOUND' } });
    const refusal = projectRefusal(match[1] ?? '', request.path);
    if (refusal) return sendJson(response, refusal.error.code, refusal);
    if (match[3] === 'google') return answerGemini(request, response, match[5]);
    if (request.body?.anthropic_version !== 'vertex-2023-10-16') return sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: vertex-2023-10-16 is required' } });
    answerMessages(request, response, 'vertex', match[5] === 'streamRawPredict');
  });
  url = server.url;

  return {
    ...server,
    tokensIssued: () => issued.size,
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
