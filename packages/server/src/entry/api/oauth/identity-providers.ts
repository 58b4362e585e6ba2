import { z } from 'zod';
import type { OutsideEndpoints } from '../../../core/config/outside-endpoints.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { callOutsideJson } from '../../../core/platform/outside-json.ts';
import { oauthMessages } from './oauth.messages.ts';

/** Who a provider says the person is. `id` is what the users table stores for that provider. */
export interface ThirdPartyIdentity {
  id: string;
  displayName: string;
  email: string;
}

const tokenAnswer = z.object({ access_token: z.string().min(1) });
const gitHubUser = z.object({ login: z.string().min(1), name: z.string().nullish(), email: z.string().nullish() });
const linuxDoUser = z.object({ id: z.number(), username: z.string().nullish(), name: z.string().nullish() });

function failure(provider: string): AppError {
  return new AppError(oauthMessages.providerFailed, { params: { provider } });
}

/**
 * GitHub's web flow: trade the code for a token, then read the user. The login name is the stored id,
 * as classic new-api stores it, so imported bindings keep working.
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 */
export async function fetchGitHubIdentity(code: string, options: OptionStore, endpoints: OutsideEndpoints): Promise<ThirdPartyIdentity> {
  const token = await callOutsideJson(endpoints.githubTokenUrl, {
    form: { client_id: options.get('GitHubClientId'), client_secret: options.get('GitHubClientSecret'), code },
  }).catch(() => undefined);
  const parsedToken = tokenAnswer.safeParse(token?.body);
  if (!parsedToken.success) throw failure('GitHub');
  const user = await callOutsideJson(endpoints.githubUserUrl, {
    headers: { authorization: `Bearer ${parsedToken.data.access_token}`, 'user-agent': 'switchboard' },
  }).catch(() => undefined);
  const parsedUser = gitHubUser.safeParse(user?.body);
  if (user?.status !== 200 || !parsedUser.success) throw failure('GitHub');
  return { id: parsedUser.data.login, displayName: parsedUser.data.name || parsedUser.data.login, email: parsedUser.data.email ?? '' };
}

/**
 * LinuxDO Connect (OAuth2 with client credentials in Basic auth); the numeric user id is stored.
 * @see https://connect.linux.do
 */
export async function fetchLinuxDoIdentity(code: string, options: OptionStore, endpoints: OutsideEndpoints): Promise<ThirdPartyIdentity> {
  const basic = Buffer.from(`${options.get('LinuxDOClientId')}:${options.get('LinuxDOClientSecret')}`).toString('base64');
  const token = await callOutsideJson(endpoints.linuxDoTokenUrl, {
    headers: { authorization: `Basic ${basic}` },
    form: { grant_type: 'authorization_code', code, redirect_uri: `${options.get('ServerAddress')}/oauth/linuxdo` },
  }).catch(() => undefined);
  const parsedToken = tokenAnswer.safeParse(token?.body);
  if (!parsedToken.success) throw failure('LinuxDO');
  const user = await callOutsideJson(endpoints.linuxDoUserUrl, { headers: { authorization: `Bearer ${parsedToken.data.access_token}` } }).catch(
    () => undefined,
  );
  const parsedUser = linuxDoUser.safeParse(user?.body);
  if (user?.status !== 200 || !parsedUser.success) throw failure('LinuxDO');
  return { id: String(parsedUser.data.id), displayName: parsedUser.data.name || parsedUser.data.username || 'LinuxDO User', email: '' };
}
