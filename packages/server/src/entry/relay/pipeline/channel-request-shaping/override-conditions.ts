import { getPath } from './json-path.ts';

/** One condition of a param_override operation: the body value at `path` compared with `value`. */
export interface OverrideCondition {
  readonly path: string;
  /** full (the default), prefix, suffix, contains, gt, gte, lt, lte. */
  readonly mode: string;
  readonly value: unknown;
  readonly invert: boolean;
  /** A missing path counts as a match (otherwise as a miss). */
  readonly passMissingKey: boolean;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** new-api's `full`: booleans and numbers by value, strings as they are; different types never match. */
function equal(actual: unknown, expected: unknown): boolean {
  if (typeof actual !== typeof expected) return false;
  if (typeof actual === 'object') return JSON.stringify(actual) === JSON.stringify(expected);
  return actual === expected;
}

/** Numeric modes compare numbers only (new-api refuses anything else: no match). */
function numeric(actual: unknown, expected: unknown, test: (a: number, b: number) => boolean): boolean {
  return typeof actual === 'number' && typeof expected === 'number' && test(actual, expected);
}

function matches(actual: unknown, mode: string, expected: unknown): boolean {
  switch (mode.toLowerCase()) {
    case '':
    case 'full':
      return equal(actual, expected);
    case 'prefix':
      return textOf(actual).startsWith(textOf(expected));
    case 'suffix':
      return textOf(actual).endsWith(textOf(expected));
    case 'contains':
      return textOf(actual).includes(textOf(expected));
    case 'gt':
      return numeric(actual, expected, (a, b) => a > b);
    case 'gte':
      return numeric(actual, expected, (a, b) => a >= b);
    case 'lt':
      return numeric(actual, expected, (a, b) => a < b);
    case 'lte':
      return numeric(actual, expected, (a, b) => a <= b);
    default:
      return false;
  }
}

function conditionHolds(body: unknown, condition: OverrideCondition): boolean {
  const found = getPath(body, condition.path);
  if (!found.found) return condition.passMissingKey;
  const result = matches(found.value, condition.mode, condition.value);
  return condition.invert ? !result : result;
}

/** Whether an operation runs: no conditions always; `AND` needs all of them, anything else (new-api's default OR) one. */
export function conditionsHold(body: unknown, conditions: readonly OverrideCondition[], logic: string): boolean {
  if (conditions.length === 0) return true;
  return logic.toUpperCase() === 'AND'
    ? conditions.every((condition) => conditionHolds(body, condition))
    : conditions.some((condition) => conditionHolds(body, condition));
}
