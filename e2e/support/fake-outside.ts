import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = { status?: number; json: unknown };

const personOf = (code: string | null | undefined) => (code?.startsWith('good-') ? code.slice(5) : undefined);
const bearer = (header: string | string[] | undefined) => String(header ?? '').replace(/^Bearer /, '');

/**
 * The outside services of the login flows on 127.0.0.1, in their real wire formats: GitHub and
 * LinuxDO OAuth (token exchange + user), a new-api "WeChat server" and Cloudflare Turnstile's
 * siteverify. A code "good-<name>" is valid and belongs to <name>; Turnstile accepts "pass".
 * Start the gateway with `outsideEnv(url)` so it calls these instead of the internet.
 */
export async function startFakeOutside() {
  const routes: Record<string, (request: FakeRequest) => Answer> = {
    'POST /github/token': (request) => {
      const person = personOf(new URLSearchParams(request.body).get('code'));
      return { json: person ? { access_token: `gho_${person}`, token_type: 'bearer', scope: '' } : { error: 'bad_verification_code' } };
    },
    'GET /github/user': (request) => {
      const person = bearer(request.headers.authorization).replace(/^gho_/, '');
      return { json: { id: person.length * 1000 + 1, login: person, name: `${person} on GitHub`, email: null } };
    },
    'POST /linuxdo/token': (request) => {
      const person = personOf(new URLSearchParams(request.body).get('code'));
      return person ? { json: { access_token: `ld_${person}`, token_type: 'bearer', expires_in: 3600 } } : { status: 400, json: { error: 'invalid_grant' } };
    },
    'GET /linuxdo/user': (request) => {
      const person = bearer(request.headers.authorization).replace(/^ld_/, '');
      return { json: { id: person.length * 1000 + 7, username: person, name: `${person} on LinuxDO`, active: true, trust_level: 2, silenced: false } };
    },
    'GET /wechat/api/wechat/user': (request) => {
      if (request.headers.authorization !== fakeWechatToken) return { json: { success: false, message: 'token invalid' } };
      const person = personOf(request.query.get('code'));
      return { json: { success: true, message: '', data: person ? `openid-${person}` : '' } };
    },
    'POST /turnstile/siteverify': (request) => {
      const body = request.headers['content-type']?.includes('json')
        ? (JSON.parse(request.body || '{}') as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(request.body));
      return { json: { success: body.response === 'pass', 'error-codes': body.response === 'pass' ? [] : ['invalid-input-response'] } };
    },
  };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const request: FakeRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = routes[`${request.method} ${request.path}`]?.(request) ?? { status: 404, json: { message: 'Not Found' } };
      outgoing.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const fakeWechatToken = 'wechat-server-token';

/** Environment that sends the gateway's outside calls to the fakes at `url`. */
export function outsideEnv(url: string): Record<string, string> {
  return {
    GITHUB_TOKEN_URL: `${url}/github/token`,
    GITHUB_USER_URL: `${url}/github/user`,
    LINUX_DO_TOKEN_ENDPOINT: `${url}/linuxdo/token`,
    LINUX_DO_USER_ENDPOINT: `${url}/linuxdo/user`,
    TURNSTILE_VERIFY_URL: `${url}/turnstile/siteverify`,
  };
}
