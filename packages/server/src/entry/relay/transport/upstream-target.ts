/** Where an upstream request goes, as undici's dispatcher takes it. */
export interface UpstreamTarget {
  /** `https://host[:port]`, without a trailing slash. */
  readonly origin: string;
  /** The path with its query, as the URL parser normalised it. */
  readonly path: string;
}

/**
 * Channels' URLs repeat (one per channel, endpoint and, for Gemini, model), so each is parsed once.
 * Bounded: past this many the memo starts afresh, so a deployment that builds unusual URLs (a query
 * per request) pays a parse per request, never memory. A URL may carry a channel's key (Gemini's
 * `?key=`): it stays in this process's memory, as the channel records that hold the key do.
 */
const maxRemembered = 1024;
const remembered = new Map<string, UpstreamTarget | null>();

/**
 * The origin and path of an upstream URL, parsed as undici parses it (WHATWG `URL`), or undefined when
 * the URL is not http or https. Throws, as `new URL` does, on text that is not a URL.
 */
export function upstreamTarget(url: string): UpstreamTarget | undefined {
  const known = remembered.get(url);
  if (known !== undefined) return known ?? undefined;
  const parsed = new URL(url);
  const target = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` } : null;
  if (remembered.size >= maxRemembered) remembered.clear();
  remembered.set(url, target);
  return target ?? undefined;
}

/** How many URLs are remembered now (for the bound's test). */
export function rememberedTargets(): number {
  return remembered.size;
}
