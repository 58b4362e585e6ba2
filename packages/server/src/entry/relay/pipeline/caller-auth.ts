import { Role, TokenStatus, UserStatus } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { autoGroupsOf, mayUseGroup } from '../../../domain/groups/usable-groups.ts';
import { isAllowed } from '../cache/ip-allow-list.ts';
import type { TokenCache, TokenRecord } from '../cache/token-cache.ts';
import type { UserCache, UserRecord } from '../cache/user-cache.ts';
import { relayMessages } from '../relay.messages.ts';
import type { KeyGuessGuard } from './key-guess-guard.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import type { RelayKey } from './relay-key.ts';

/** Who is calling the relay, after every check: what is billed and which routes they may use. */
export interface RelayCaller {
  /** Undefined for the playground, which bills the user only. */
  readonly token: TokenRecord | undefined;
  readonly user: UserRecord;
  /** token.group, else the user's group: selects channels and the group ratio. */
  readonly usingGroup: string;
  readonly tokenName: string;
  readonly pinnedChannelId: number | undefined;
}

/** Refuses a banned or deregistered user. */
export function checkUser(user: UserRecord | undefined): UserRecord {
  if (!user || user.status !== UserStatus.enabled) throw new RelayError(403, 'user_banned', relayMessages.userBanned);
  return user;
}

/**
 * Authenticates a relay key from memory: token status, expiry, exhaustion, IP allow-list, owner's
 * status, token group within the owner's usable groups, channel pin (administrators only).
 */
export async function authenticateToken(
  relayKey: RelayKey | undefined,
  ip: string,
  dependencies: { tokens: TokenCache; users: UserCache; options: OptionStore; nowSeconds: number; keyGuesses: KeyGuessGuard },
): Promise<RelayCaller> {
  if (!relayKey) throw new RelayError(401, 'invalid_token', relayMessages.noToken);
  let token = dependencies.tokens.get(relayKey.key);
  // A change to the token (or its owner) reached this process and is being read: the call follows it.
  const rereading = token && dependencies.tokens.rereadOf(token.id);
  if (rereading) {
    await rereading.catch(() => undefined);
    token = dependencies.tokens.get(relayKey.key);
  }
  if (!token) {
    // Only a key not in memory costs a lookup, and only those are what a guesser sends.
    await dependencies.keyGuesses.beforeLookup(ip);
    token = await dependencies.tokens.lookup(relayKey.key);
  }
  if (!token) {
    dependencies.keyGuesses.failed(ip);
    throw new RelayError(401, 'invalid_token', relayMessages.invalidToken);
  }
  if (token.status === TokenStatus.enabled && token.expiredTime !== -1 && token.expiredTime < dependencies.nowSeconds) dependencies.tokens.markExpired(token);
  if (token.status === TokenStatus.expired) throw new RelayError(401, 'token_expired', relayMessages.tokenExpired);
  if (token.status === TokenStatus.exhausted || (!token.unlimited && token.remainQuota <= 0))
    throw new RelayError(401, 'token_quota_exhausted', relayMessages.tokenExhausted);
  if (token.status !== TokenStatus.enabled) throw new RelayError(401, 'token_unavailable', relayMessages.tokenUnavailable);
  if (!isAllowed(token.allowIps, ip)) throw new RelayError(403, 'ip_not_allowed', relayMessages.ipNotAllowed, { params: { ip } });
  const userRereading = dependencies.users.rereadOf(token.userId);
  if (userRereading) await userRereading.catch(() => undefined);
  const user = checkUser(dependencies.users.get(token.userId) ?? (await dependencies.users.lookup(token.userId)));
  let usingGroup = user.group;
  if (token.group === 'auto') {
    // new-api's auto group: the relay walks the owner's usable AutoGroups in order, each at its own ratio.
    if (autoGroupsOf(dependencies.options, user.group).length === 0)
      throw new RelayError(403, 'group_not_allowed', relayMessages.groupNotAllowed, { params: { group: token.group } });
    usingGroup = 'auto';
  } else if (token.group) {
    if (!mayUseGroup(dependencies.options, user.group, token.group))
      throw new RelayError(403, 'group_not_allowed', relayMessages.groupNotAllowed, { params: { group: token.group } });
    const ratios = dependencies.options.getJson<Record<string, number>>('GroupRatio') ?? {};
    if (!(token.group in ratios)) throw new RelayError(403, 'group_deprecated', relayMessages.groupDeprecated, { params: { group: token.group } });
    usingGroup = token.group;
  }
  if (relayKey.pinnedChannelId !== undefined && user.role < Role.admin) throw new RelayError(403, 'access_denied', relayMessages.channelPinForbidden);
  return { token, user, usingGroup, tokenName: token.name, pinnedChannelId: relayKey.pinnedChannelId };
}

/** Whether the token may use a model (its model limits, when enabled). */
export function checkModelAllowed(caller: RelayCaller, model: string): void {
  const limits = caller.token?.modelLimits;
  if (limits && !limits.has(model)) throw new RelayError(403, 'model_not_allowed', relayMessages.modelNotAllowed, { params: { model } });
}
