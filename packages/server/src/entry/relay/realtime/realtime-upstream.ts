import type { ChannelRecord } from '../cache/channel-cache.ts';

/** The Azure API version of beta (preview) realtime sessions when the channel names none. */
const defaultAzureRealtimeVersion = '2024-10-01-preview';

/** Where and how a realtime session opens on one channel. */
export interface RealtimeUpstream {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/**
 * The subprotocol by which a caller that cannot set headers (a browser) asks for the beta protocol.
 * @see https://platform.openai.com/docs/guides/realtime-websocket
 */
export const betaSubprotocol = 'openai-beta.realtime-v1';

/**
 * Whether the caller asked for the Realtime API's beta protocol: its `OpenAI-Beta: realtime=v1`
 * header (comma-separated with other betas, as OpenAI reads it) or the beta subprotocol. Otherwise
 * the session speaks GA, the protocol of OpenAI's current SDKs (`response.output_text.delta`,
 * `session.update` with `type: "realtime"`); GA-only models refuse a beta session (close code 4000,
 * `beta_api_shape_disabled`), so beta is never asked for on a caller's behalf.
 */
export function callerAsksForBeta(betaHeader: string | string[] | undefined, offeredProtocols: readonly string[]): boolean {
  const betas = (Array.isArray(betaHeader) ? betaHeader.join(',') : (betaHeader ?? '')).split(',').map((beta) => beta.trim().toLowerCase());
  return betas.includes('realtime=v1') || offeredProtocols.includes(betaSubprotocol);
}

/** The vendors that offer the Realtime API: OpenAI itself and Azure OpenAI. */
export function servesRealtime(channel: ChannelRecord): boolean {
  return channel.provider?.id === 'openai' || channel.provider?.id === 'azure';
}

/** The channel's base URL with a WebSocket scheme (http → ws, https → wss). */
function webSocketBase(baseUrl: string): string {
  return baseUrl.replace(/^http/i, 'ws');
}

/**
 * OpenAI: `GET /v1/realtime?model=…` with the key as a bearer token, and the beta header only when
 * the caller asked for beta (`callerAsksForBeta`). Azure, key in `api-key`: the GA protocol on its v1
 * path, `/openai/v1/realtime?model=<deployment>` (no API version); the beta protocol only when the
 * caller asked for it, on the preview path `/openai/realtime?api-version=…&deployment=…`, whose API
 * version (the channel's `other` field, as for its other endpoints) speaks beta.
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/how-to/realtime-audio-websockets
 */
export function realtimeUpstream(channel: ChannelRecord, key: string, upstreamModel: string, beta: boolean): RealtimeUpstream {
  const base = webSocketBase(channel.baseUrl);
  if (channel.provider?.id === 'azure') {
    if (!beta) return { url: `${base}/openai/v1/realtime?${new URLSearchParams({ model: upstreamModel })}`, headers: { 'api-key': key } };
    const query = new URLSearchParams({ 'api-version': channel.other || defaultAzureRealtimeVersion, deployment: upstreamModel });
    return { url: `${base}/openai/realtime?${query}`, headers: { 'api-key': key } };
  }
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (beta) headers['openai-beta'] = 'realtime=v1';
  if (channel.organization) headers['openai-organization'] = channel.organization;
  return { url: `${base}/v1/realtime?${new URLSearchParams({ model: upstreamModel })}`, headers };
}
