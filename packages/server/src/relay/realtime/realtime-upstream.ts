import type { ChannelRecord } from '../cache/channel-cache.ts';

/** The Azure API version of realtime sessions when the channel names none. */
const defaultAzureRealtimeVersion = '2024-10-01-preview';

/** Where and how a realtime session opens on one channel. */
export interface RealtimeUpstream {
  readonly url: string;
  readonly headers: Record<string, string>;
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
 * OpenAI: `GET /v1/realtime?model=…` with the key as a bearer token and the beta header. Azure:
 * `/openai/realtime?api-version=…&deployment=…` with the key in `api-key`; the API version is the
 * channel's `other` field, as for its other endpoints.
 */
export function realtimeUpstream(channel: ChannelRecord, key: string, upstreamModel: string): RealtimeUpstream {
  const base = webSocketBase(channel.baseUrl);
  if (channel.provider?.id === 'azure') {
    const query = new URLSearchParams({ 'api-version': channel.other || defaultAzureRealtimeVersion, deployment: upstreamModel });
    return { url: `${base}/openai/realtime?${query}`, headers: { 'api-key': key } };
  }
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'openai-beta': 'realtime=v1' };
  if (channel.organization) headers['openai-organization'] = channel.organization;
  return { url: `${base}/v1/realtime?${new URLSearchParams({ model: upstreamModel })}`, headers };
}
