import { hash } from 'node:crypto';

/**
 * Fields that name or track the caller but never change the answer: left out of the key, so two
 * callers asking the same thing share an answer (a `user` scope adds the user id on purpose).
 */
const identifyingFields = new Set(['user', 'safety_identifier', 'prompt_cache_key', 'metadata']);

/**
 * JSON with every object's keys sorted, built by appending to one string: the form a key is made of
 * (`{"a":1,"b":2}` and `{"b":2,"a":1}` are one request). `canonicalJson` takes it only for a body
 * `sortedCopy` cannot serve; the text is the same either way, so keys (and the answers Redis keeps
 * under them) stay valid.
 */
function builtCanonicalJson(value: unknown, top: boolean): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) out += (index === 0 ? '' : ',') + builtCanonicalJson(value[index], false);
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    if (item === undefined || (top && identifyingFields.has(key))) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${builtCanonicalJson(item, false)}`;
  }
  return `${out}}`;
}

/** `sortedCopy`'s answer for a body whose text it cannot order: the builder makes that one. */
const needsBuilder = Symbol('needs the builder');

/**
 * `value` with every object's keys in sorted order and, at the top, the identifying fields left out:
 * the value itself where nothing changes, a copy of an object only where its keys were out of order.
 * One native JSON.stringify of it then gives the canonical text, with far fewer strings made on the way
 * than appending part by part (this runs on every request a rule applies to, hits and misses alike).
 * JavaScript enumerates keys that read as array indexes first and in numeric order whatever the
 * insertion order (a `logit_bias` of token ids), and assigning `__proto__` sets the prototype; an
 * object with such a key is left to the builder.
 */
function sortedCopy(value: unknown, top: boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const sorted = sortedCopy(item, false);
      if (sorted === needsBuilder) return needsBuilder;
      if (sorted !== item) (copy ??= value.slice())[index] = sorted;
    }
    return copy ?? value;
  }
  // A class instance (not what JSON.parse makes) may have its own toJSON: the builder reads its keys.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return needsBuilder;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let inOrder = true;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__') return needsBuilder;
    if (index > 0 && (keys[index - 1] as string) > key) inOrder = false;
  }
  if (!inOrder) keys.sort();
  // Made at the first difference: keys out of order, a member left out or a member copied.
  let copy: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const item = object[key];
    const sorted = sortedCopy(item, false);
    if (sorted === needsBuilder) return needsBuilder;
    const leftOut = top && identifyingFields.has(key);
    if (!copy && (leftOut || sorted !== item)) copy = copyOfFirst(object, keys, index);
    if (copy && !leftOut) copy[key] = sorted;
  }
  return copy ?? value;
}

/** A new object with the first `count` of `keys` and their values (unchanged so far). */
function copyOfFirst(object: Record<string, unknown>, keys: readonly string[], count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < count; index += 1) copy[keys[index] as string] = object[keys[index] as string];
  return copy;
}

/** The canonical text of a request body (see builtCanonicalJson), by one JSON.stringify where it can. */
export function canonicalJson(body: Record<string, unknown>): string {
  const sorted = sortedCopy(body, true);
  return sorted === needsBuilder ? builtCanonicalJson(body, true) : JSON.stringify(sorted);
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
    `${parts.path}\n${parts.model}\n${parts.stream ? 's' : 'w'}\n${parts.userId ?? ''}\n${parts.groups}\n${canonicalJson(parts.body)}`,
    'base64url',
  );
}
