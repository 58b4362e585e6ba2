import { headerValueOf, isHeaderName, type HeaderEdits, type HeaderSources } from './header-passing.ts';
import { getPath, setPath } from './json-path.ts';

/**
 * new-api's `sync_fields`: keeps a body field and a header (or two fields, or two headers) in step.
 * When one side has a value and the other none, the empty side gets it; when both or neither have
 * one, nothing changes. Codex, for instance, sends its session both as the `session_id` header and as
 * `prompt_cache_key`; a vendor that reads only one of them gets it either way.
 */
export interface SyncTarget {
  readonly kind: 'json' | 'header';
  /** A body path, or a header name lower-cased. */
  readonly key: string;
}

/** `json:<path>`, `body:<path>`, `header:<name>`, or a bare body path; undefined when malformed. */
export function readSyncTarget(spec: string): SyncTarget | undefined {
  const text = spec.trim();
  const colon = text.indexOf(':');
  if (colon < 0) return text ? { kind: 'json', key: text } : undefined;
  const kind = text.slice(0, colon).trim().toLowerCase();
  const key = text.slice(colon + 1).trim();
  if (!key) return undefined;
  if (kind === 'json' || kind === 'body') return { kind: 'json', key };
  if (kind === 'header') return isHeaderName(key) ? { kind: 'header', key: key.toLowerCase() } : undefined;
  return undefined;
}

/** A target's value, undefined when it has none (missing, null or blank text). */
function valueAt(target: SyncTarget, body: Record<string, unknown>, edits: HeaderEdits, sources: HeaderSources): unknown {
  if (target.kind === 'header') return headerValueOf(target.key, edits, sources);
  const found = getPath(body, target.key);
  if (!found.found || found.value === null || (typeof found.value === 'string' && !found.value.trim())) return undefined;
  return found.value;
}

/** Writes a value to a target; true when the body changed. A header value that would split the header is not written. */
function write(target: SyncTarget, value: unknown, body: Record<string, unknown>, edits: HeaderEdits): boolean {
  if (target.kind === 'json') return setPath(body, target.key, structuredClone(value));
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
  if (text && !/[\r\n\0]/.test(text)) edits.set(target.key, text);
  return false;
}

/** Fills whichever side is empty from the other; true when the body changed. */
export function syncFields(from: SyncTarget, to: SyncTarget, body: Record<string, unknown>, edits: HeaderEdits, sources: HeaderSources): boolean {
  const fromValue = valueAt(from, body, edits, sources);
  const toValue = valueAt(to, body, edits, sources);
  if (fromValue !== undefined && toValue === undefined) return write(to, fromValue, body, edits);
  if (toValue !== undefined && fromValue === undefined) return write(from, toValue, body, edits);
  return false;
}
