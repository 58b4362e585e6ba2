import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import { commonMessages, type LocalizedMessage } from '../../../core/messages/catalogue.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { OptionKey } from '@switchboard/contracts';
import type { AccountServices } from '../user/account-services.ts';
import { queryText } from '../../../core/http/listing/query-parameters.ts';
import type { RecentVerification } from '../two-factor/recent-verification.ts';
import type { CompleteLogin } from '../two-factor/two-factor-module.ts';
import { assertEmailAllowed, normaliseEmail } from '../verification/email-rules.ts';
import type { VerificationService } from '../verification/verification.service.ts';
import { verificationMessages } from '../verification/verification.messages.ts';
import { fetchGitHubIdentity, fetchLinuxDoIdentity, type ThirdPartyIdentity } from './identity-providers.ts';
import { oauthMessages } from './oauth.messages.ts';
import { OAuthStates } from './oauth-state.ts';
import { telegramFields, verifyTelegramLogin } from './telegram.ts';
import { type ThirdPartyKind, ThirdPartyLogin } from './third-party-login.service.ts';
import { fetchWeChatOpenId } from './wechat.ts';

const open = { config: { access: 'public' as const } };
const user = { config: { access: 'user' as const } };

const kinds = {
  github: { column: 'github_id', usernamePrefix: 'github_', accountField: 'githubId', alreadyBound: oauthMessages.gitHubAlreadyBound },
  linuxdo: { column: 'linux_do_id', usernamePrefix: 'linuxdo_', accountField: 'linuxDoId', alreadyBound: oauthMessages.linuxDoAlreadyBound },
  wechat: { column: 'wechat_id', usernamePrefix: 'wechat_', accountField: 'wechatId', alreadyBound: oauthMessages.weChatAlreadyBound },
  telegram: {
    column: 'telegram_id',
    usernamePrefix: 'telegram_',
    accountField: 'telegramId',
    alreadyBound: oauthMessages.telegramAlreadyBound,
    notBound: oauthMessages.telegramNotBound,
  },
} as const satisfies Record<string, ThirdPartyKind>;

export function registerOAuthRoutes(
  app: FastifyInstance,
  services: AccountServices,
  verification: VerificationService,
  completeLogin: CompleteLogin,
  secondFactor?: RecentVerification,
): void {
  const { options, outsideEndpoints } = services;
  const states = new OAuthStates(services.store);
  const thirdParty = new ThirdPartyLogin(services);

  const assertEnabled = (key: OptionKey, message: LocalizedMessage) => {
    if (!options.getBoolean(key)) throw new AppError(message);
  };

  /** Logs the identity's user in (a session cookie), or binds it when the caller is logged in. */
  async function finish(request: FastifyRequest, reply: FastifyReply, kind: ThirdPartyKind, identity: ThirdPartyIdentity, affCode: string) {
    if (request.currentUser) {
      await thirdParty.bind(request.currentUser.id, kind, identity.id);
      return ok(undefined, 'bind');
    }
    // A user with a second factor gets `require_2fa` here too, like a password login.
    return completeLogin(request, reply, await thirdParty.login(kind, identity, affCode));
  }

  app.get('/api/oauth/state', open, async (request, reply) => ok(await states.issue(reply, queryText(request.query, 'aff'))));

  app.get('/api/oauth/github', open, async (request, reply) => {
    assertEnabled('GitHubOAuthEnabled', oauthMessages.gitHubDisabled);
    const affCode = await states.consume(request, reply, queryText(request.query, 'state'));
    const identity = await fetchGitHubIdentity(queryText(request.query, 'code'), options, outsideEndpoints);
    return finish(request, reply, kinds.github, identity, affCode);
  });

  app.get('/api/oauth/linuxdo', open, async (request, reply) => {
    assertEnabled('LinuxDOOAuthEnabled', oauthMessages.linuxDoDisabled);
    const affCode = await states.consume(request, reply, queryText(request.query, 'state'));
    const identity = await fetchLinuxDoIdentity(queryText(request.query, 'code'), options, outsideEndpoints);
    return finish(request, reply, kinds.linuxdo, identity, affCode);
  });

  app.get('/api/oauth/wechat', open, async (request, reply) => {
    assertEnabled('WeChatAuthEnabled', oauthMessages.weChatDisabled);
    const openId = await fetchWeChatOpenId(queryText(request.query, 'code'), options, services.outgoing);
    return completeLogin(request, reply, await thirdParty.login(kinds.wechat, { id: openId, displayName: 'WeChat User', email: '' }));
  });

  app.get('/api/oauth/wechat/bind', user, async (request) => {
    assertEnabled('WeChatAuthEnabled', oauthMessages.weChatDisabled);
    await thirdParty.bind(requireUser(request).id, kinds.wechat, await fetchWeChatOpenId(queryText(request.query, 'code'), options, services.outgoing));
    return ok();
  });

  app.get('/api/oauth/telegram/login', open, async (request, reply) => {
    assertEnabled('TelegramOAuthEnabled', oauthMessages.telegramDisabled);
    const telegramId = verifyTelegramLogin(telegramFields(request.query), options.get('TelegramBotToken'), services.clock.unixSeconds());
    return completeLogin(request, reply, await thirdParty.login(kinds.telegram, { id: telegramId, displayName: '', email: '' }));
  });

  // The widget's auth URL: a browser navigation, so it carries the session cookie but no
  // New-Api-User header; it is public and checks the session itself, then returns to the settings.
  app.get('/api/oauth/telegram/bind', open, async (request, reply) => {
    assertEnabled('TelegramOAuthEnabled', oauthMessages.telegramDisabled);
    if (!request.currentUser) throw new AppError(commonMessages.notLoggedIn, { status: 401 });
    const telegramId = verifyTelegramLogin(telegramFields(request.query), options.get('TelegramBotToken'), services.clock.unixSeconds());
    await thirdParty.bind(request.currentUser.id, kinds.telegram, telegramId);
    return reply.redirect('/setting?tab=personal', 302);
  });

  app.get('/api/oauth/email/bind', user, async (request) => {
    if (!queryText(request.query, 'email').trim()) throw new AppError(oauthMessages.emailRequired);
    if (!queryText(request.query, 'code').trim()) throw new AppError(oauthMessages.emailCodeRequired);
    const email = normaliseEmail(queryText(request.query, 'email'));
    assertEmailAllowed(email, options);
    const caller = requireUser(request);
    // A new e-mail is a way into the account (password reset): a recent second-factor check when one is set.
    await secondFactor?.assert(request, caller.id);
    const holder = await services.users.findByIdentity('email', email);
    if (holder && holder.id !== caller.id) throw new AppError(verificationMessages.emailTaken);
    if (!(await verification.consumeEmailCode(email, queryText(request.query, 'code')))) throw new AppError(verificationMessages.codeInvalid);
    await services.users.update(caller.id, { email });
    await services.bus.publish(changeTopics.users, String(caller.id));
    return ok();
  });
}
