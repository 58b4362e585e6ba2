import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuseConsoleCaller, sessionUser, type ConsoleSessionLookup } from '../../../domain/auth/console-session.ts';
import { mayUseGroup } from '../../../domain/groups/usable-groups.ts';
import { checkUser, type RelayCaller } from '../pipeline/caller-auth.ts';
import { relayEndpoints } from '../pipeline/relay-endpoints.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import { relayRequest } from '../pipeline/relay-pipeline.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';
import { answerRelay, parseJsonBody } from './relay.routes.ts';

const chatEndpoint = relayEndpoints.find((endpoint) => endpoint.capability === 'chat');

/**
 * The logged-in console user of a playground request: the session cookie plus the matching
 * New-Api-User header (access tokens are not accepted here, as in new-api).
 */
async function playgroundCaller(services: RelayServices, logins: ConsoleSessionLookup, request: FastifyRequest, group: string): Promise<RelayCaller> {
  const loggedIn = await sessionUser(request, logins);
  if (!loggedIn) throw new RelayError(401, 'unauthorized', relayMessages.invalidToken);
  const refusal = refuseConsoleCaller(request, loggedIn);
  if (refusal === 'banned') throw new RelayError(403, 'user_banned', relayMessages.userBanned);
  if (refusal) throw new RelayError(401, 'unauthorized', relayMessages.invalidToken);
  const user = checkUser(services.users.get(loggedIn.id) ?? (await services.users.lookup(loggedIn.id)));
  const usingGroup = group || user.group;
  if (!mayUseGroup(services.options, user.group, usingGroup))
    throw new RelayError(403, 'group_not_allowed', relayMessages.playgroundGroupNotAllowed, { params: { group: usingGroup } });
  return { token: undefined, user, usingGroup, tokenName: `playground-${usingGroup}`, pinnedChannelId: undefined };
}

/**
 * POST /pg/chat/completions: the console playground, billed to the user's wallet in the chosen group.
 * `logins` finds the console's logged-in user (its sessions, the auth repository, the clock).
 */
export function registerPlaygroundRoutes(app: FastifyInstance, services: RelayServices, logins: ConsoleSessionLookup): void {
  if (!chatEndpoint) return;
  app.post('/pg/chat/completions', async (request, reply) => {
    await answerRelay(request, reply, async () => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const parsed = parseJsonBody(chatEndpoint, raw);
      const body = typeof parsed === 'object' && parsed !== null ? { ...(parsed as Record<string, unknown>) } : {};
      const group = typeof body.group === 'string' ? body.group : '';
      // `group` is ours, not OpenAI's: upstreams reject unknown parameters.
      const hadGroup = 'group' in body;
      delete body.group;
      const caller = await playgroundCaller(services, logins, request, group);
      await relayRequest(services, chatEndpoint, request, reply, caller, body, hadGroup);
    });
    return reply;
  });
}
