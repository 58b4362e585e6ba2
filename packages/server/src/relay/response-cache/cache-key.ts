import { createHash } from 'node:crypto';

/**
 * Fields that name or track the caller but never change the answer: left out of the key, so two
 * callers asking the same thing share an answer (a `user` scope adds the user id on purpose).
 */
const identifyingFields = new Set(['user', 'safety_identifier', 'prompt_cache_key', 'metadata']);

/** JSON with every object's keys sorted: `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request. */
function canonicalJson(value: unknown, top: boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, false)).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object)
    .filter((key) => object[key] !== undefined && !(top && identifyingFields.has(key)))
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key], false)}`).join(',')}}`;
}

export interface CacheKeyParts {
  /** The path the caller called (its dialect: an Anthropic caller never gets an OpenAI body). */
  readonly path: string;
  /** The model the request is priced and routed as (after the entry's and alias mapping). */
  readonly model: string;
  readonly stream: boolean;
  readonly body: Record<string, unknown>;
  /** Set for rules of scope `user`. */
  readonly userId: number | undefined;
}

/** The key of one request: a hash of its canonical form, never of the key or (unless scoped) the user. */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256')
    .update(`${parts.path}\n${parts.model}\n${parts.stream ? 's' : 'w'}\n${parts.userId ?? ''}\n`)
    .update(canonicalJson(parts.body, true))
    .digest('base64url');
}
