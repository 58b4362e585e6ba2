/**
 * The dotted paths of new-api's param_override operations (gjson's syntax, the part new-api's
 * admins use): `a.b.0.c`, a dot inside a name escaped as `\.`, and a negative array index counted
 * from the end (`messages.-1.content` is the last message), as new-api resolves it before each op.
 */

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** The path's segments; an empty path has none. */
export function pathSegments(path: string): string[] {
  if (!path) return [];
  const segments: string[] = [];
  let current = '';
  for (let at = 0; at < path.length; at += 1) {
    const char = path[at];
    if (char === '\\' && at + 1 < path.length) {
      current += path[at + 1];
      at += 1;
    } else if (char === '.') {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
}

/** The index a segment names in an array, negative ones counted from its end; undefined when it names none. */
function arrayIndex(array: unknown[], segment: string): number | undefined {
  if (!/^-?\d+$/.test(segment)) return undefined;
  const index = Number(segment);
  const resolved = index < 0 ? array.length + index : index;
  return resolved >= 0 ? resolved : undefined;
}

function child(container: unknown, segment: string): { found: boolean; value: unknown } {
  if (Array.isArray(container)) {
    const index = arrayIndex(container, segment);
    return index !== undefined && index < container.length ? { found: true, value: container[index] } : { found: false, value: undefined };
  }
  if (isContainer(container) && Object.hasOwn(container, segment)) return { found: true, value: (container as Record<string, unknown>)[segment] };
  return { found: false, value: undefined };
}

/** The value at a path, and whether it exists (a present `null` exists). */
export function getPath(root: unknown, path: string): { found: boolean; value: unknown } {
  let current: { found: boolean; value: unknown } = { found: true, value: root };
  for (const segment of pathSegments(path)) {
    current = child(current.value, segment);
    if (!current.found) return current;
  }
  return current;
}

/**
 * Sets the value at a path, creating the objects on the way (a scalar in the way becomes one, as
 * new-api's sjson does); false when an array index is out of reach (nothing changed).
 */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): boolean {
  const segments = pathSegments(path);
  if (segments.length === 0) return false;
  let container: Container = root;
  for (const [position, segment] of segments.entries()) {
    const last = position === segments.length - 1;
    if (Array.isArray(container)) {
      const index = arrayIndex(container, segment);
      if (index === undefined || index > container.length) return false;
      if (last) {
        container[index] = value;
        return true;
      }
      if (!isContainer(container[index])) container[index] = {};
      container = container[index] as Container;
      continue;
    }
    if (last) {
      container[segment] = value;
      return true;
    }
    if (!isContainer(container[segment])) container[segment] = {};
    container = container[segment] as Container;
  }
  return false;
}

/** Removes the value at a path; false when there was none. */
export function deletePath(root: Record<string, unknown>, path: string): boolean {
  const segments = pathSegments(path);
  const name = segments.pop();
  if (name === undefined) return false;
  const parent = segments.length === 0 ? { found: true, value: root } : getPath(root, segments.map((segment) => segment.replaceAll('.', '\\.')).join('.'));
  if (!parent.found) return false;
  if (Array.isArray(parent.value)) {
    const index = arrayIndex(parent.value, name);
    if (index === undefined || index >= parent.value.length) return false;
    parent.value.splice(index, 1);
    return true;
  }
  if (!isContainer(parent.value) || !Object.hasOwn(parent.value, name)) return false;
  delete (parent.value as Record<string, unknown>)[name];
  return true;
}
