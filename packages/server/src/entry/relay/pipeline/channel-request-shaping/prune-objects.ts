import { conditionsHold, type OverrideCondition } from './override-conditions.ts';

/**
 * new-api's `prune_objects`: removes, from the value at the operation's path (the whole body when
 * it has none), every object that matches, wherever it sits below (`recursive`, the default) or
 * only at the first level. Typical use: dropping `redacted_thinking` blocks before a retry.
 */
export interface PruneRule {
  readonly conditions: readonly OverrideCondition[];
  /** `AND` (the default) or anything else for new-api's OR. */
  readonly logic: string;
  readonly recursive: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key → value map as `full` conditions (new-api's `where` and its object form of `conditions`). */
const equalsEach = (map: Record<string, unknown>): OverrideCondition[] =>
  Object.entries(map)
    .filter(([key]) => key.trim() !== '')
    .map(([key, value]) => ({ path: key.trim(), mode: 'full', value, invert: false, passMissingKey: false }));

function conditionList(raw: unknown): OverrideCondition[] | undefined {
  if (isRecord(raw)) {
    const conditions = equalsEach(raw);
    return conditions.length > 0 ? conditions : undefined;
  }
  if (!Array.isArray(raw)) return undefined;
  const conditions: OverrideCondition[] = [];
  for (const item of raw) {
    if (!isRecord(item) || typeof item.path !== 'string' || !item.path.trim() || typeof item.mode !== 'string' || !item.mode.trim()) return undefined;
    conditions.push({ path: item.path, mode: item.mode, value: item.value, invert: item.invert === true, passMissingKey: item.pass_missing_key === true });
  }
  return conditions;
}

/**
 * The rule an operation's `value` describes: a type name (`"redacted_thinking"`), or an object with
 * `type`, `where` (field → value), `conditions`, `logic` and `recursive`. Undefined when it names no
 * condition or is malformed (new-api fails such an operation on every request).
 */
export function readPruneRule(value: unknown): PruneRule | undefined {
  if (typeof value === 'string') {
    const type = value.trim();
    return type ? { conditions: equalsEach({ type }), logic: 'AND', recursive: true } : undefined;
  }
  if (!isRecord(value)) return undefined;
  const conditions: OverrideCondition[] = [];
  if (value.conditions !== undefined) {
    const listed = conditionList(value.conditions);
    if (!listed) return undefined;
    conditions.push(...listed);
  }
  if (value.where !== undefined) {
    if (!isRecord(value.where)) return undefined;
    conditions.push(...equalsEach(value.where));
  }
  if (value.type !== undefined) conditions.push(...equalsEach({ type: value.type }));
  if (conditions.length === 0) return undefined;
  const logic = typeof value.logic === 'string' && value.logic.trim() ? value.logic : 'AND';
  return { conditions, logic, recursive: typeof value.recursive === 'boolean' ? value.recursive : true };
}

/**
 * Prunes in place below `node` (never `node` itself: the value at the path stays, emptied of what
 * matched); true when anything was removed.
 */
export function pruneObjects(node: unknown, rule: PruneRule): boolean {
  let removed = false;
  const matches = (value: unknown): boolean => isRecord(value) && conditionsHold(value, rule.conditions, rule.logic);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) {
        if (matches(value[index])) {
          value.splice(index, 1);
          removed = true;
        } else if (rule.recursive || !isRecord(value[index])) visit(value[index]);
      }
      return;
    }
    // As new-api: without `recursive` an object's fields are not looked into, only a list's items.
    if (!isRecord(value) || !rule.recursive) return;
    for (const [key, child] of Object.entries(value)) {
      if (matches(child)) {
        delete value[key];
        removed = true;
      } else visit(child);
    }
  };
  visit(node);
  return removed;
}
