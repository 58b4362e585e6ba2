import { parseOther } from './log-other.ts';

export interface KeyedContent {
  key: string;
  params: Record<string, string | number>;
}

/**
 * The message a log row names in its `other` JSON (`content_key`, `content_params`), written by the
 * server beside new-api's Chinese `content`; undefined for rows without one (older rows, consume logs).
 */
export function keyedContentOf(other: string | null | undefined): KeyedContent | undefined {
  const parsed = parseOther(other) as { content_key?: unknown; content_params?: unknown };
  if (typeof parsed.content_key !== 'string' || !/^[\w.]+$/.test(parsed.content_key)) return undefined;
  const raw = typeof parsed.content_params === 'object' && parsed.content_params !== null ? (parsed.content_params as Record<string, unknown>) : {};
  const params = Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'),
  );
  return { key: parsed.content_key, params };
}
