import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import { computeQuota, preConsumeQuota, resolvePricing, type ModelPricing } from '../../../domain/billing/pricing.ts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import type { Reservation } from '../../../domain/billing/quota-ledger.ts';
import { generateRequestId } from '../../../core/http/request-id.ts';
import { statusText } from '../../../core/http/status-text.ts';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import { authenticateToken, checkModelAllowed, type RelayCaller } from '../pipeline/caller-auth.ts';
import { mapModel, selectChannel } from '../pipeline/channel-selector.ts';
import { consumeLogEntry } from '../pipeline/consume-log.ts';
import { maskSecrets, RelayError, relayErrorBody } from '../../../core/http/relay-error.ts';
import { readRelayKey } from '../pipeline/relay-key.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';
import { bridgeRealtime, type RealtimeEndReason } from './realtime-bridge.ts';
import { callerAsksForBeta, realtimeUpstream, servesRealtime } from './realtime-upstream.ts';
import type { RealtimeUsage } from './realtime-usage.ts';
import { quotaRefusal } from '../pipeline/quota-refusal.ts';

export const realtimePath = '/v1/realtime';
/** Browsers cannot set headers on a WebSocket: OpenAI's clients send the key as this subprotocol. */
const keyProtocolPrefix = 'openai-insecure-api-key.';
/** The model of a session that names none (OpenAI's clients always name one). */
const defaultRealtimeModel = 'gpt-4o-realtime-preview';
/** Largest frame accepted from either side: audio chunks are base64 text, well below this. */
const maxFrameBytes = 16 * 1024 * 1024;

/** The subprotocols a caller offered (`Sec-WebSocket-Protocol`). */
function offeredProtocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol'];
  return (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((protocol) => protocol.trim())
    .filter(Boolean);
}

/** The relay key from `Authorization`, else from the subprotocol browsers use. */
function realtimeKey(request: IncomingMessage) {
  const fromHeader = readRelayKey(request.headers, realtimePath, {});
  if (fromHeader) return fromHeader;
  const protocol = offeredProtocols(request).find((offered) => offered.startsWith(keyProtocolPrefix));
  return protocol ? readRelayKey({ authorization: protocol.slice(keyProtocolPrefix.length) }, realtimePath, {}) : undefined;
}

/** Refuses an upgrade with an HTTP answer in OpenAI's error shape, then drops the connection. */
function refuse(socket: Duplex, request: IncomingMessage, error: RelayError, requestId: string): void {
  const body = JSON.stringify(relayErrorBody(error, requestId, request.headers['accept-language']));
  socket.end(
    `HTTP/1.1 ${error.status} ${statusText(error.status)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-oneapi-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Opens the upstream socket; resolves once it is open, rejects with the reason it did not. */
async function openUpstream(url: string, headers: Record<string, string>, timeoutMs: number): Promise<WebSocket> {
  const { WebSocket } = await import('ws');
  return new Promise((resolve, reject) => {
    const upstream = new WebSocket(url, { headers, handshakeTimeout: timeoutMs, maxPayload: maxFrameBytes, perMessageDeflate: false });
    // Held until the caller's side is joined (bridgeRealtime resumes it): the upstream speaks first
    // (`session.created`), and nothing may be read before someone listens.
    upstream.once('open', () => {
      upstream.pause();
      resolve(upstream);
    });
    upstream.once('unexpected-response', (_request, response) => {
      response.resume();
      upstream.terminate();
      reject(Object.assign(new Error(`upstream refused the session: HTTP ${response.statusCode ?? 0}`), { status: response.statusCode ?? 502 }));
    });
    upstream.once('error', reject);
  });
}

interface Session {
  readonly caller: RelayCaller;
  readonly model: string;
  readonly pricing: ModelPricing;
  readonly reservation: Reservation;
  readonly requestId: string;
  readonly startedAt: number;
  /** The caller speaks the Realtime API's beta protocol, so the upstream session must too. */
  readonly beta: boolean;
}

/**
 * `GET /v1/realtime` upgraded to a WebSocket (OpenAI Realtime API), relayed to an OpenAI or Azure
 * channel: the key is checked like any relay key, the model priced, a hold placed, and a channel of
 * the caller's group tried in priority order (another one when a channel refuses the handshake).
 * Frames pass through untouched; the session's usage (text and audio tokens at their ratios, from
 * every `response.done`) is charged once, with one consume log row, when the session ends, however
 * it ends. A session whose usage outgrows the balance is told so and closed.
 */
export function registerRealtimeRoute(app: FastifyInstance, services: RelayServices): void {
  // Created on the first upgrade: the `ws` library costs memory in every process, and most never see a realtime session.
  let created: Promise<WebSocketServer> | undefined;
  const server = () =>
    (created ??= import('ws').then(
      ({ WebSocketServer }) =>
        new WebSocketServer({
          noServer: true,
          maxPayload: maxFrameBytes,
          perMessageDeflate: false,
          // The key protocol is not echoed back: the caller gets `realtime` when it offered it, else none.
          handleProtocols: (protocols) => (protocols.has('realtime') ? 'realtime' : false),
        }),
    ));
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    void acceptSession(services, server, request, socket, head);
  });
  app.addHook('onClose', async () => {
    if (!created) return;
    const opened = await created;
    for (const client of opened.clients) client.terminate();
    opened.close();
  });
}

async function acceptSession(
  services: RelayServices,
  server: () => Promise<WebSocketServer>,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const requestId = generateRequestId();
  socket.on('error', () => socket.destroy());
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== realtimePath) return refuse(socket, request, new RelayError(404, 'not_found', relayMessages.notFound), requestId);
  let session: Session | undefined;
  try {
    session = await openSession(services, request, url, requestId);
    const { channel, upstream, upstreamModel, tried } = await connectChannel(services, session);
    const sockets = await server();
    let joined = false;
    // Completes synchronously, or not at all: a caller gone while the upstream opened, or a
    // handshake ws refuses (bad Sec-WebSocket-Key), never gets the callback.
    sockets.handleUpgrade(request, socket, head, (client) => {
      joined = true;
      const held = session as Session;
      bridgeRealtime(client, upstream, {
        mayContinue: (usage) => mayContinue(services, held, usage),
        outOfQuotaEvent: () =>
          JSON.stringify({
            type: 'error',
            error: { type: 'insufficient_quota', code: 'insufficient_user_quota', message: relayMessages.insufficientUserQuota.en },
          }),
        onEnd: (usage, reason) => settleSession(services, held, { channel, upstreamModel, tried, usage, reason }),
      });
    });
    if (!joined) {
      upstream.terminate();
      services.ledger.refund(session.reservation);
      socket.destroy();
    }
  } catch (error) {
    if (session) services.ledger.refund(session.reservation);
    const refusal = error instanceof RelayError ? error : new RelayError(502, 'upstream_error', relayMessages.upstreamUnreachable);
    refuse(socket, request, refusal, requestId);
  }
}

/** Checks the caller, the model and its price, and holds the floor amount (PreConsumedQuota). */
async function openSession(services: RelayServices, request: IncomingMessage, url: URL, requestId: string): Promise<Session> {
  const { options, clock } = services;
  const startedAt = clock.now();
  const caller = await authenticateToken(realtimeKey(request), request.socket.remoteAddress ?? '', {
    tokens: services.tokens,
    keyGuesses: services.keyGuesses,
    users: services.users,
    options,
    nowSeconds: clock.unixSeconds(),
  });
  const model = url.searchParams.get('model') || defaultRealtimeModel;
  checkModelAllowed(caller, model);
  const tables = readPriceTables(options);
  const pricing = resolvePricing(
    tables,
    model,
    { userGroup: caller.user.group, usingGroup: caller.usingGroup },
    options.getBoolean('SelfUseModeEnabled') || caller.user.acceptUnpriced,
  );
  if (!pricing) throw new RelayError(400, 'model_price_error', relayMessages.modelPriceError, { params: { model } });
  const hold = preConsumeQuota(pricing, { promptTokens: 0, maxTokens: 0, floorTokens: options.getNumber('PreConsumedQuota') }, tables.quotaPerUnit);
  const reserved = await services.ledger.reserve(caller.token, caller.user, hold, hold);
  if (!reserved.ok) throw quotaRefusal(reserved.refusedBy);
  const beta = callerAsksForBeta(request.headers['openai-beta'], offeredProtocols(request));
  return { caller, model, pricing, reservation: reserved.reservation, requestId, startedAt, beta };
}

/** The next realtime-capable channel of the caller's group for the model (a pinned one, if pinned). */
function nextRealtimeChannel(services: RelayServices, session: Session, attempt: number, tried: Set<number>): ChannelRecord | undefined {
  const { caller, model } = session;
  if (caller.pinnedChannelId !== undefined) {
    const channel = services.channels.get(caller.pinnedChannelId);
    return attempt === 0 && channel?.status === 1 && servesRealtime(channel) ? channel : undefined;
  }
  for (;;) {
    const channel = selectChannel(services.channels.tiers(caller.usingGroup, model), attempt, tried, services.random);
    if (!channel || servesRealtime(channel)) return channel;
    // Another vendor's channel for this model cannot hold a realtime session: never this one again.
    tried.add(channel.id);
  }
}

/** Opens the session upstream on the first channel that accepts it, trying up to RetryTimes others. */
async function connectChannel(services: RelayServices, session: Session) {
  const tried = new Set<number>();
  const order: number[] = [];
  const retries = session.caller.pinnedChannelId === undefined ? Math.max(0, services.options.getNumber('RetryTimes')) : 0;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    const channel = nextRealtimeChannel(services, session, attempt, tried);
    if (!channel) break;
    tried.add(channel.id);
    order.push(channel.id);
    const key = channel.keys[Math.floor(services.random() * channel.keys.length)] ?? '';
    const upstreamModel = mapModel(channel.modelMapping, session.model);
    const target = realtimeUpstream(channel, key, upstreamModel, session.beta);
    try {
      const upstream = await openUpstream(target.url, target.headers, services.timeouts.headersMs);
      return { channel, upstream, upstreamModel, tried: order };
    } catch (error) {
      lastError = error;
      const status = (error as { status?: number }).status;
      if (status === 401 || status === 403) services.health.disableAfterError(channel, maskSecrets(String((error as Error).message), [key]));
    }
  }
  if (lastError === undefined)
    throw new RelayError(503, 'model_not_found', relayMessages.noChannel, { params: { model: session.model, group: session.caller.usingGroup } });
  throw new RelayError(502, 'upstream_error', relayMessages.realtimeRefused, { params: { reason: upstreamReason(lastError) } });
}

/** Why the last channel refused, without anything secret (the channel's key or address). */
function upstreamReason(error: unknown): string {
  const status = (error as { status?: number }).status;
  return status ? `HTTP ${status}` : 'connection failed';
}

/** Whether the balance still pays for what the session used so far (the hold included). */
function mayContinue(services: RelayServices, session: Session, usage: RealtimeUsage): boolean {
  const cost = computeQuota(session.pricing, usage.total(), readPriceTables(services.options).quotaPerUnit);
  const { token, user, amount } = session.reservation;
  if (cost > amount + user.quota) return false;
  return !token || token.unlimited || cost <= amount + token.remainQuota;
}

/** Charges the session's whole usage once, with its consume log row; a session that used nothing is refunded. */
function settleSession(
  services: RelayServices,
  session: Session,
  ended: { channel: ChannelRecord; upstreamModel: string; tried: number[]; usage: RealtimeUsage; reason: RealtimeEndReason },
): void {
  const { options, clock } = services;
  const usage = ended.usage.total();
  if (ended.usage.responses === 0) {
    services.ledger.refund(session.reservation);
    return;
  }
  const quota = computeQuota(session.pricing, usage, readPriceTables(options).quotaPerUnit);
  const log = options.getBoolean('LogConsumeEnabled')
    ? consumeLogEntry({
        caller: session.caller,
        model: session.model,
        upstreamModel: ended.upstreamModel,
        pricing: session.pricing,
        usage,
        quota,
        channelId: ended.channel.id,
        triedChannels: ended.tried,
        stream: true,
        startedAt: session.startedAt,
        finishedAt: clock.now(),
        firstResponseMs: undefined,
        requestId: session.requestId,
        requestPath: realtimePath,
        localCount: false,
        endReason: ended.reason === 'out_of_quota' ? 'out_of_quota' : 'done',
        warnings: [],
        createdAt: clock.unixSeconds(),
      })
    : undefined;
  void services.ledger.settle(session.reservation, quota, ended.channel.id, log);
}
