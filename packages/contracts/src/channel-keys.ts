import { findChannelType, type ChannelKeyShape } from './channel-types.ts';

/**
 * The key text of a channel holds one key per line (a multi-key channel uses one at random per
 * request; the console's batch mode makes one channel per line), except JSON credentials: a Vertex
 * service account as Google downloads it is pretty-printed over many lines and is one key.
 */
export function isJsonCredential(keyText: string): boolean {
  const trimmed = keyText.trim();
  return trimmed.startsWith('{') || trimmed.startsWith('[');
}

/** The keys in a channel's key text: the JSON credential whole, otherwise the non-empty trimmed lines. */
export function splitChannelKeys(keyText: string): string[] {
  const trimmed = keyText.trim();
  if (isJsonCredential(trimmed)) return [trimmed];
  return trimmed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function hasStringFields(json: string, fields: readonly string[]): boolean {
  let value: unknown;
  // A malformed credential is an expected input here, not a failure: the answer is just "no".
  try {
    value = JSON.parse(json);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return fields.every((field) => typeof record[field] === 'string' && record[field] !== '');
}

/** Whether one key has the shape its type's relay needs (`APIKey|SecretKey`, a service-account JSON, …). */
export function keyHasShape(key: string, shape: ChannelKeyShape): boolean {
  if (shape.kind === 'json') return hasStringFields(key, shape.fields);
  const parts = key.split(shape.separator).map((part) => part.trim());
  return shape.counts.includes(parts.length) && parts.every((part) => part !== '');
}

/**
 * The 1-based position of the first key in a channel's key text that does not fit the strict format
 * of its type, or undefined when every key fits (or the type's format is not strict).
 */
export function firstMisshapenKey(type: number, keyText: string): number | undefined {
  const shape = findChannelType(type)?.keyFormat?.shape;
  if (!shape) return undefined;
  const index = splitChannelKeys(keyText).findIndex((key) => !keyHasShape(key, shape));
  return index === -1 ? undefined : index + 1;
}
