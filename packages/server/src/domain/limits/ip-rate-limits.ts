import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { RateLimitSetting, RateLimitsConfig } from '../../core/config/config.ts';
import { isApiRoute } from '../../core/http/access.ts';
import { isRelayPath } from '../../core/http/error-handler.ts';
import { isApiPath, requestPath } from '../../core/http/request-path.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { LimitRule, LimitStore } from './limit-store.ts';
import { retryAfterSeconds, windowSlot } from './window-slot.ts';
import { matchedRoute } from '../../core/http/matched-route.ts';

/**
 * new-api's CriticalRateLimit routes as registered here: sign-in and sign-up, mail codes and password
 * reset, third-party logins and bindings, the second-factor check, top-ups, and key reveals. Only
 * routes registered here (the test checks each entry against the app's routes): new-api's OIDC login
 * and its POST forms of the WeChat and e-mail bindings are not served, so they are not listed.
 */
export const criticalRoutes: ReadonlySet<string> = new Set([
  'POST /api/user/register',
  'POST /api/user/login',
  'POST /api/user/login/2fa',
  'POST /api/user/passkey/login/begin',
  'POST /api/user/passkey/login/finish',
  'GET /api/verification',
  'GET /api/reset_password',
  'POST /api/user/reset',
  'GET /api/oauth/state',
  'GET /api/oauth/github',
  'GET /api/oauth/linuxdo',
  'GET /api/oauth/wechat',
  'GET /api/oauth/wechat/bind',
  'GET /api/oauth/email/bind',
  'GET /api/oauth/telegram/login',
  'GET /api/oauth/telegram/bind',
  'POST /api/verify',
  'POST /api/user/topup',
  'POST /api/user/pay',
  'POST /api/token/:id/key',
  'POST /api/channel/:id/key',
]);

/**
 * Critical routes where an address past its limit is asked for the human check instead of being
 * refused, when Turnstile is configured: one guesser behind a shared address (a company proxy, a
 * campus NAT) must not lock everyone behind it out of signing in. The login then asks for the check.
 */
const humanCheckRoutes: ReadonlySet<string> = new Set(['POST /api/user/login']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's address is past the critical limit on a route that steps up instead of refusing. */
    addressOverLimit?: boolean;
  }
}

/** The legacy OpenAI billing routes, which new-api puts under the global API limit too. */
function isBillingRoute(pattern: string): boolean {
  return pattern.startsWith('/dashboard/billing/') || pattern.startsWith('/v1/dashboard/billing/');
}

/** Searches scan with LIKE: new-api's SearchRateLimit holds each user to a few per minute. */
function isSearchRoute(pattern: string): boolean {
  return isApiRoute(pattern) && pattern.endsWith('/search');
}

type Mark = 'GA' | 'GW' | 'CT' | 'SR';

/**
 * Bare 429 with Retry-After and no body, as new-api answers its IP limits. The window's key is
 * new-api's `rateLimit:<mark>:<subject>` plus the window index.
 */
function ruleFor(mark: Mark, setting: RateLimitSetting, subject: string, now: number): LimitRule {
  const slot = windowSlot(`rateLimit:${mark}:${subject}`, setting.durationSeconds * 1000, now);
  return { kind: 'window', key: slot.key, limit: setting.count, cost: 1, ttlMs: slot.remainingMs };
}

function addHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook];
}

/**
 * new-api's request limits of the console side, each switched and sized by its environment variables
 * (config.ts): GLOBAL_API_RATE_LIMIT per address on /api (unknown /api paths included) and the legacy
 * billing routes, GLOBAL_WEB_RATE_LIMIT per address on console pages (the HTML, not its hashed files),
 * CRITICAL_RATE_LIMIT per address on the critical routes, SEARCH_RATE_LIMIT per user on searches.
 * Hooks are attached only to the routes they limit, so the relay's routes carry none. Must be called
 * before the routes are registered.
 */
export function registerIpRateLimits(
  app: FastifyInstance,
  dependencies: { config: RateLimitsConfig; store: LimitStore; clock: Clock; humanCheckConfigured: () => boolean },
): void {
  const { config, store, clock, humanCheckConfigured } = dependencies;
  const { globalApi, globalWeb, critical, search } = config;

  /** Counts the request; true when a rule refused it, and the bare 429 is then sent. */
  const refused = async (reply: FastifyReply, rules: LimitRule[]): Promise<boolean> => {
    const admission = await store.admit(rules, clock.now());
    if (admission.admitted) return false;
    reply
      .code(429)
      .header('retry-after', String(retryAfterSeconds(admission.retryAfterMs)))
      .send();
    return true;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const pattern = route.url;
    const methods = [route.method].flat();
    const limitsApi = globalApi.enabled && (isApiRoute(pattern) || isBillingRoute(pattern));
    const limitsCritical = critical.enabled && methods.some((method) => criticalRoutes.has(`${method} ${pattern}`));
    const stepsUp = limitsCritical && methods.some((method) => humanCheckRoutes.has(`${method} ${pattern}`));
    if (limitsApi || limitsCritical) {
      const byAddress: onRequestHookHandler = async (request, reply) => {
        const now = clock.now();
        const rules: LimitRule[] = [];
        if (limitsApi) rules.push(ruleFor('GA', globalApi, request.ip, now));
        if (stepsUp && humanCheckConfigured()) {
          if (rules.length > 0 && (await refused(reply, rules))) return reply;
          const admission = await store.admit([ruleFor('CT', critical, request.ip, now)], now);
          if (!admission.admitted) request.addressOverLimit = true;
          return;
        }
        if (limitsCritical) rules.push(ruleFor('CT', critical, request.ip, now));
        if (await refused(reply, rules)) return reply;
      };
      route.onRequest = addHook(route.onRequest, byAddress);
    }
    if (search.enabled && isSearchRoute(pattern)) {
      // A preHandler: it runs after authentication, which names the user.
      const byUser: preHandlerHookHandler = async (request, reply) => {
        const subject = request.currentUser ? `user:${request.currentUser.id}` : `ip:${request.ip}`;
        if (await refused(reply, [ruleFor('SR', search, subject, clock.now())])) return reply;
      };
      route.preHandler = addHook(route.preHandler, byUser);
    }
  });

  if (!globalApi.enabled && !globalWeb.enabled) return;
  /**
   * Paths no route matched: an unknown /api path counts against the API limit (probing for routes is
   * limited too), a console page (a client route such as /token) against the web limit. Callback
   * style: every other request passes with two property reads and no promise.
   */
  app.addHook('onRequest', (request, reply, done) => {
    const mark = pageOrUnknownApiMark(request);
    const setting = mark === 'GA' ? globalApi : globalWeb;
    if (!mark || !setting.enabled) return done();
    refused(reply, [ruleFor(mark, setting, request.ip, clock.now())]).then(
      (wasRefused) => (wasRefused ? undefined : done()),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

/** 'GA' for an unknown /api path, 'GW' for a console page or file outside /assets, undefined for anything else. */
function pageOrUnknownApiMark(request: FastifyRequest): Mark | undefined {
  const matched = matchedRoute(request).url;
  if (matched === '/') return request.method === 'GET' ? 'GW' : undefined;
  // `/*` is the console's static files route: it also receives every unknown GET (then the page).
  if (matched !== undefined && matched !== '/*') return undefined;
  const path = requestPath(request);
  if (isApiPath(path)) return 'GA';
  return request.method === 'GET' && !isRelayPath(path) && !path.startsWith('/assets/') ? 'GW' : undefined;
}
