import { hash } from 'node:crypto';

/**
 * Fields that name or track the caller but never change the answer: left out of the key, so two
 * callers asking the same thing share an answer (a `user` scope adds the user id on purpose).
 */
const identifyingFields = new Set(['user', 'safety_identifier', 'prompt_cache_key', 'metadata']);

/**
 * JSON with every object's keys sorted: `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request. Built by
 * appending to one string (no intermediate arrays of parts): this runs on every request a rule
 * applies to, hits and misses alike. The text is the same as before that rewrite, so keys (and the
 * answers Redis keeps under them) stay valid across it.
 */
function canonicalJson(value: unknown, top: boolean): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) out += (index === 0 ? '' : ',') + canonicalJson(value[index], false);
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    if (item === undefined || (top && identifyingFields.has(key))) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item, false)}`;
  }
  return `${out}}`;
}

export interface CacheKeyParts {
  /** The path the caller called (its dialect: an Anthropic caller never gets an OpenAI body). */
  readonly path: string;
  /** The model the request is priced and routed as (after the entry's and alias mapping). */
  readonly model: string;
  readonly stream: boolean;
  /**
   * The groups the request is routed in (the caller's, or the `auto` list in order): a group's
   * channels may map the model elsewhere or shape the request, and a caller must never get an answer
   * from a channel its group cannot use.
   */
  readonly groups: string;
  readonly body: Record<string, unknown>;
  /** Set for rules of scope `user`. */
  readonly userId: number | undefined;
}

/**
 * The key of one request: a hash of its canonical form, never of the key or (unless scoped) the user.
 * One-shot `hash()` (no Hash object to build and feed): less than half the CPU of `createHash()` for
 * a request's few hundred bytes, the same digest.
 */
export function cacheKey(parts: CacheKeyParts): string {
  return hash(
    'sha256',
    `${parts.path}\n${parts.model}\n${parts.stream ? 's' : 'w'}\n${parts.userId ?? ''}\n${parts.groups}\n${canonicalJson(parts.body, true)}`,
    'base64url',
  );
}
