import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { HeaderOverride } from './header-override.ts';

/**
 * The headers new-api's `copy_header`, `move_header` and `pass_headers` read: first what the
 * channel sends on its own (its `header_override` as edited by the operations so far), then the
 * caller's request headers. So `pass_headers: ["session_id"]` forwards a caller's `session_id`, and
 * `copy_header` from `authorization` would forward the caller's own key: the administrator's choice,
 * as in new-api.
 */
export interface HeaderSources {
  /** The channel's `header_override`, names lower-cased. */
  readonly channel?: HeaderOverride | undefined;
  /** The caller's request headers as Node gives them (names lower-cased). */
  readonly caller: Readonly<Record<string, string | string[] | undefined>>;
}

/** Upstream headers the operations set (a value) or remove (undefined), names lower-cased. */
export type HeaderEdits = Map<string, string | undefined>;

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const isHeaderName = (name: string): boolean => headerName.test(name);

const present = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** What the channel itself sends for a header now: an operation's edit, else its header_override. */
function channelValue(name: string, edits: HeaderEdits, sources: HeaderSources): string | undefined {
  return edits.has(name) ? present(edits.get(name)) : present(sources.channel?.[name]);
}

/** A header's value as the operations see it: the channel's, else the caller's; undefined when neither has one. */
export function headerValueOf(name: string, edits: HeaderEdits, sources: HeaderSources): string | undefined {
  const own = channelValue(name, edits, sources);
  if (own !== undefined) return own;
  const caller = sources.caller[name];
  return present(Array.isArray(caller) ? caller.join(', ') : caller);
}

/**
 * Copies header `from` to header `to` (names lower-cased); `keepOrigin` keeps a value the channel
 * already sends for `to`. A missing source is skipped, as new-api does; false when nothing changed.
 */
export function copyHeader(from: string, to: string, keepOrigin: boolean, edits: HeaderEdits, sources: HeaderSources): boolean {
  const value = headerValueOf(from, edits, sources);
  if (value === undefined) return false;
  if (keepOrigin && channelValue(to, edits, sources) !== undefined) return false;
  edits.set(to, value);
  return true;
}

/** The header names a `pass_headers` value lists (a list, a comma-separated or JSON text, or `{headers|names|header}`); undefined when none. */
export function readHeaderNames(value: unknown): string[] | undefined {
  const names: string[] = [];
  const collect = (raw: unknown): boolean => {
    if (typeof raw === 'string') {
      const text = raw.trim();
      if (text.startsWith('[') || text.startsWith('{')) {
        const parsed = safeParseJson(text);
        if (parsed.ok) return collect(parsed.value);
      }
      names.push(...text.split(','));
      return true;
    }
    if (Array.isArray(raw)) return raw.every((item) => typeof item === 'string' && collect(item));
    if (typeof raw === 'object' && raw !== null) {
      const listed = raw as Record<string, unknown>;
      for (const key of ['headers', 'names', 'header']) if (listed[key] !== undefined) collect(listed[key]);
      return true;
    }
    return false;
  };
  if (!collect(value)) return undefined;
  const unique = [...new Set(names.map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))];
  return unique.length > 0 && unique.every(isHeaderName) ? unique : undefined;
}
