/**
 * new-api's wildcard paths: a `*` segment stands for every key of an object (in sorted order) or
 * every item of a list, so `tools.*.custom.input_examples` names that field in every tool. The
 * pattern is expanded against the body as it is when its operation runs (an earlier operation may
 * have added or removed what it matches).
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key as one segment of our dotted paths (json-path.ts): its dots and backslashes escaped. */
const segmentOf = (key: string): string => key.replace(/[\\.]/g, '\\$&');

export const hasWildcard = (path: string): boolean => path.split('.').includes('*');

/**
 * The concrete paths a wildcard path names in `root`. As new-api: the last segment of a path through
 * an object is named whether or not it is there yet (so `set` can add it); a named segment that
 * leads nowhere, or a `*` over a value that is neither an object nor a list, names nothing.
 */
export function expandWildcardPath(root: unknown, path: string): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, segments: readonly string[], prefix: readonly string[]): void => {
    if (segments.length === 0) {
      paths.push(prefix.join('.'));
      return;
    }
    const segment = (segments[0] as string).trim();
    const rest = segments.slice(1);
    if (segment === '') return;
    if (segment === '*') {
      if (Array.isArray(node)) node.forEach((item, index) => walk(item, rest, [...prefix, String(index)]));
      else if (isRecord(node)) for (const key of Object.keys(node).sort()) walk(node[key], rest, [...prefix, segmentOf(key)]);
      return;
    }
    if (Array.isArray(node)) {
      if (!/^-?\d+$/.test(segment)) return;
      const index = Number(segment) < 0 ? node.length + Number(segment) : Number(segment);
      if (index < 0 || index >= node.length) return;
      walk(node[index], rest, [...prefix, String(index)]);
    } else if (isRecord(node)) {
      if (rest.length === 0) paths.push([...prefix, segmentOf(segment)].join('.'));
      else if (Object.hasOwn(node, segment)) walk(node[segment], rest, [...prefix, segmentOf(segment)]);
    }
  };
  walk(root, path.split('.'), []);
  return [...new Set(paths)];
}
