/**
 * Other spellings of one concrete /api URL: ones a router decodes or normalises onto the same route
 * (percent-encoded letters), and ones it may not (doubled slashes, dot segments, other letter case).
 * A guard that reads the URL text instead of the matched route lets the first kind through; the
 * access matrix calls every route through them and accepts only a refusal or a 404.
 */
export type VariantKind = 'encoded' | 'case' | 'slashes' | 'dots';

export interface UrlVariant {
  kind: VariantKind;
  url: string;
}

const percentEncoded = (letter: string) => `%${letter.charCodeAt(0).toString(16)}`;

/** `text` with its letter at `index` percent-encoded. */
function encodeLetterAt(text: string, index: number): string {
  return `${text.slice(0, index)}${percentEncoded(text.charAt(index))}${text.slice(index + 1)}`;
}

/** The first letter of the segments after `/api` encoded (`/api/%63hannel/1`), or none without letters. */
function encodeLaterSegment(rest: string): string | undefined {
  const index = rest.search(/[a-z]/i);
  return index < 0 ? undefined : `/api${encodeLetterAt(rest, index)}`;
}

/** Every variant of `url` (which starts with `/api`), grouped by kind. */
export function allUrlVariants(url: string): UrlVariant[] {
  const rest = url.slice('/api'.length);
  const later = encodeLaterSegment(rest);
  const encoded = [0, 1, 2].map((index) => `/${encodeLetterAt('api', index)}${rest}`);
  return [
    ...encoded.map((variant) => ({ kind: 'encoded' as const, url: variant })),
    { kind: 'encoded', url: `/%61%70%69${rest}` },
    { kind: 'encoded', url: `/%61%50%69${rest}` },
    ...(later ? [{ kind: 'encoded' as const, url: later }] : []),
    { kind: 'encoded', url: `/api%2f${rest.replace(/^\//, '')}` },
    { kind: 'case', url: `/API${rest}` },
    { kind: 'case', url: `/Api${rest}` },
    { kind: 'case', url: `/api${rest.toUpperCase()}` },
    { kind: 'slashes', url: `//api${rest.replaceAll('/', '//')}` },
    { kind: 'slashes', url: `/api/${rest}` },
    { kind: 'dots', url: `/api/../api${rest}` },
    { kind: 'dots', url: `/x/../api${rest}` },
    { kind: 'dots', url: `/api/.${rest}` },
    { kind: 'dots', url: `/x/%2e%2e/api${rest}` },
  ];
}

/**
 * A few variants for a route that is not among the most dangerous ones: every encoded form of `api`
 * and of a later segment, and one of each other kind (chosen by `seed`, so the routes together still
 * cover every spelling).
 */
export function representativeUrlVariants(url: string, seed: number): UrlVariant[] {
  const all = allUrlVariants(url);
  const pick = (kind: VariantKind) => {
    const ofKind = all.filter((variant) => variant.kind === kind);
    return ofKind[seed % ofKind.length];
  };
  const encoded = all.filter((variant) => variant.kind === 'encoded').slice(0, 3);
  const laterSegment = all.find((variant) => variant.kind === 'encoded' && variant.url.startsWith('/api/%'));
  return [...encoded, ...(laterSegment ? [laterSegment] : []), pick('case'), pick('slashes'), pick('dots')].filter(
    (variant): variant is UrlVariant => variant !== undefined,
  );
}
