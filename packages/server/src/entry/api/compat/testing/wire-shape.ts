/**
 * The shape of an answer as a console reads it, written in the fixtures as JSON:
 * - a primitive name, or several joined by `|`: `"string"`, `"number"`, `"boolean"`, `"null"`,
 *   `"any"` (read but not interpreted), e.g. `"string|null"`;
 * - `{ "array": <shape>, "minLength"?: n }`: every element has the shape;
 * - `{ "object": { field: <shape> } }`: those fields are present with their shapes (others may be);
 * - `{ "map": <shape> }`: an object whose every value has the shape (keys are data: ids, groups);
 * - `{ "ref": "name" }`: a shape the fixture file names under `shapes`.
 */
export type WireShape = string | { array: WireShape; minLength?: number } | { object: Record<string, WireShape> } | { map: WireShape } | { ref: string };

function primitiveMatches(name: string, value: unknown): boolean {
  if (name === 'any') return value !== undefined;
  if (name === 'null') return value === null;
  if (name === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (name === 'string' || name === 'boolean') return typeof value === name;
  throw new Error(`unknown primitive "${name}" in a fixture`);
}

const describe = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** Every place where `value` differs from `shape`, as `path: expected …, got …` lines; empty when it matches. */
export function shapeMismatches(shape: WireShape, value: unknown, named: Record<string, WireShape>, path = 'data'): string[] {
  if (typeof shape === 'string') {
    return shape.split('|').some((name) => primitiveMatches(name.trim(), value)) ? [] : [`${path}: expected ${shape}, got ${describe(value)}`];
  }
  if ('ref' in shape) {
    const target = named[shape.ref];
    if (target === undefined) throw new Error(`unknown shape "${shape.ref}" in a fixture`);
    return shapeMismatches(target, value, named, path);
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) return [`${path}: expected an array, got ${describe(value)}`];
    const tooShort = value.length < (shape.minLength ?? 0) ? [`${path}: expected at least ${shape.minLength} elements, got ${value.length}`] : [];
    return [...tooShort, ...value.flatMap((element, index) => shapeMismatches(shape.array, element, named, `${path}[${index}]`))];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected an object, got ${describe(value)}`];
  const record = value as Record<string, unknown>;
  if ('map' in shape) return Object.entries(record).flatMap(([key, element]) => shapeMismatches(shape.map, element, named, `${path}.${key}`));
  return Object.entries(shape.object).flatMap(([field, fieldShape]) =>
    field in record ? shapeMismatches(fieldShape, record[field], named, `${path}.${field}`) : [`${path}.${field}: missing`],
  );
}
