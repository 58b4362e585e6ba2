import { startFakeHttpServer } from './fake-http-server.ts';

/**
 * Local stand-ins for GitHub, LinuxDO Connect and a new-api "WeChat server", answering in each one's
 * wire format. A code "good-<name>" is valid and belongs to the person <name>.
 */
export async function startFakeProviders() {
  const personOf = (code: string | null) => (code?.startsWith('good-') ? code.slice(5) : undefined);
  const bearer = (header: string | string[] | undefined) => String(header ?? '').replace(/^Bearer /, '');
  return startFakeHttpServer({
    'POST /github/login/oauth/access_token': (request) => {
      const person = personOf(new URLSearchParams(request.body).get('code'));
      return {
        json: person
          ? { access_token: `gho_${person}`, token_type: 'bearer', scope: '' }
          : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
      };
    },
    'GET /github/user': (request) => {
      const person = bearer(request.headers.authorization).replace(/^gho_/, '');
      return person
        ? { json: { login: person, id: 1000, name: `${person} on GitHub`, email: `${person}@github.test` } }
        : { status: 401, json: { message: 'Bad credentials' } };
    },
    'POST /linuxdo/oauth2/token': (request) => {
      const person = personOf(new URLSearchParams(request.body).get('code'));
      return person ? { json: { access_token: `ld_${person}`, token_type: 'bearer', expires_in: 3600 } } : { status: 400, json: { error: 'invalid_grant' } };
    },
    'GET /linuxdo/api/user': (request) => {
      const person = bearer(request.headers.authorization).replace(/^ld_/, '');
      return { json: { id: person.length * 1000 + 7, username: person, name: `${person} on LinuxDO`, active: true, trust_level: 2, silenced: false } };
    },
    'GET /wechat/api/wechat/user': (request) => {
      if (request.headers.authorization !== 'wechat-server-token') return { json: { success: false, message: 'token invalid' } };
      const person = personOf(request.query.get('code'));
      return { json: { success: true, message: '', data: person ? `openid-${person}` : '' } };
    },
  });
}
