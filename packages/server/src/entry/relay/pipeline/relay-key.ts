import type { IncomingHttpHeaders } from 'node:http';

export interface RelayKey {
  /** The stored key: without `sk-` and without a channel pin. */
  readonly key: string;
  /** `sk-KEY-17`: an administrator pins channel 17 (no selection, no retries). */
  readonly pinnedChannelId: number | undefined;
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
};

/**
 * Where a relay key comes from, as in new-api: `x-api-key` on the model list (Anthropic-style
 * clients), `?key=` or `x-goog-api-key` on Gemini paths, otherwise `Authorization` with an optional
 * `Bearer `. The `sk-` prefix is optional; a `-<number>` suffix pins a channel.
 */
export function readRelayKey(headers: IncomingHttpHeaders, path: string, query: Record<string, unknown>): RelayKey | undefined {
  let raw = '';
  if (path.startsWith('/v1/models') || path.startsWith('/v1/messages')) raw = header(headers, 'x-api-key');
  if (!raw && path.startsWith('/v1beta')) raw = (typeof query.key === 'string' ? query.key : '') || header(headers, 'x-goog-api-key');
  if (!raw) raw = header(headers, 'authorization').replace(/^bearer\s+/i, '');
  if (!raw) return undefined;
  const withoutPrefix = raw.startsWith('sk-') ? raw.slice(3) : raw;
  const [key = '', pin] = withoutPrefix.split('-');
  if (!key) return undefined;
  const pinnedChannelId = pin !== undefined && /^\d+$/.test(pin) ? Number(pin) : undefined;
  return { key, pinnedChannelId };
}
