import { conditionsHold, type OverrideCondition } from './override-conditions.ts';
import { deletePath, getPath, setPath } from './json-path.ts';
import { copyHeader, isHeaderName, readHeaderNames, type HeaderEdits, type HeaderSources } from './header-passing.ts';
import { pruneObjects, readPruneRule, type PruneRule } from './prune-objects.ts';
import { readSyncTarget, syncFields, type SyncTarget } from './sync-fields.ts';
import { expandWildcardPath, hasWildcard } from './wildcard-paths.ts';

export type { HeaderEdits, HeaderSources } from './header-passing.ts';

/**
 * A channel's `param_override` (new-api), parsed once when the channel is loaded. Two formats:
 * - classic: a JSON object whose top-level keys overwrite the upstream body's (literal keys, a dot
 *   in a name is not a path), the format new-api has always had;
 * - operations: `{"operations":[{path, mode, value, keep_origin, from, to, conditions, logic}]}`,
 *   applied in order to the body the upstream gets.
 */
export type ParamOverride =
  | { readonly kind: 'classic'; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly kind: 'operations'; readonly operations: readonly OverrideOperation[] };

export interface OverrideOperation {
  readonly mode: OperationMode;
  readonly path: string;
  readonly value: unknown;
  readonly keepOrigin: boolean;
  readonly from: string;
  readonly to: string;
  readonly conditions: readonly OverrideCondition[];
  readonly logic: string;
  /** regex_replace's pattern, compiled once with the channel. */
  readonly pattern?: RegExp;
  /** The path holds `*` in a mode that expands it (told once, with the channel). */
  readonly wildcard?: boolean;
  /** prune_objects' rule, read once with the channel. */
  readonly pruneRule?: PruneRule;
  /** pass_headers' names, lower-cased. */
  readonly headerNames?: readonly string[];
  /** sync_fields' two sides, read once with the channel. */
  readonly sync?: { readonly from: SyncTarget; readonly to: SyncTarget };
  /** array_remove's rule: an item goes when its field at `path` equals `eq`. */
  readonly match?: { readonly path: string; readonly eq: string | number | boolean };
}

const operationModes = [
  'set',
  'delete',
  'move',
  'copy',
  'prepend',
  'append',
  'trim_prefix',
  'trim_suffix',
  'ensure_prefix',
  'ensure_suffix',
  'trim_space',
  'to_lower',
  'to_upper',
  'replace',
  'regex_replace',
  'return_error',
  'block',
  'pass',
  'set_header',
  'delete_header',
  'copy_header',
  'move_header',
  'pass_headers',
  'prune_objects',
  'array_remove',
  'sync_fields',
] as const;

export type OperationMode = (typeof operationModes)[number];

/** What stops a request on its way to this channel. */
export interface OverrideRefusal {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly message: string;
  /** Another channel may still take the request. */
  readonly retryable: boolean;
}

export type OverrideOutcome =
  { readonly refused?: undefined; readonly changed: boolean; readonly headerEdits?: HeaderEdits | undefined } | { readonly refused: OverrideRefusal };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function readCondition(raw: unknown): OverrideCondition | undefined {
  if (!isRecord(raw)) return undefined;
  return {
    path: stringOf(raw.path),
    mode: stringOf(raw.mode),
    value: raw.value,
    invert: raw.invert === true,
    passMissingKey: raw.pass_missing_key === true,
  };
}

/** A header value an operation may set: text or a number, never one that would split the header. */
function headerValue(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return text === undefined || /[\r\n\0]/.test(text) ? undefined : text;
}

/** The modes whose `path` may hold `*` (new-api's path-based operations). */
const wildcardModes: ReadonlySet<OperationMode> = new Set<OperationMode>([
  'delete',
  'set',
  'prepend',
  'append',
  'trim_prefix',
  'trim_suffix',
  'ensure_prefix',
  'ensure_suffix',
  'trim_space',
  'to_lower',
  'to_upper',
  'replace',
  'regex_replace',
  'prune_objects',
  'array_remove',
]);

function readOperation(raw: unknown): OverrideOperation | undefined {
  if (!isRecord(raw) || typeof raw.mode !== 'string') return undefined;
  const mode = raw.mode.trim() as OperationMode;
  if (!operationModes.includes(mode)) return undefined;
  const conditions = Array.isArray(raw.conditions) ? raw.conditions.map(readCondition) : [];
  if (conditions.some((condition) => condition === undefined)) return undefined;
  const operation: OverrideOperation = {
    mode,
    path: stringOf(raw.path),
    value: raw.value,
    keepOrigin: raw.keep_origin === true,
    from: stringOf(raw.from),
    to: stringOf(raw.to),
    conditions: conditions as OverrideCondition[],
    logic: stringOf(raw.logic) || 'OR',
    ...(wildcardModes.has(mode) && hasWildcard(stringOf(raw.path)) ? { wildcard: true } : {}),
  };
  if (mode === 'set_header' || mode === 'delete_header') {
    const value = mode === 'set_header' ? headerValue(raw.value) : '';
    return isHeaderName(operation.path) && value !== undefined ? operation : undefined;
  }
  if (mode === 'copy_header' || mode === 'move_header') {
    // As new-api: `path` stands for whichever of `from` and `to` is missing.
    const from = (operation.from.trim() || operation.path.trim()).toLowerCase();
    const to = (operation.to.trim() || operation.path.trim()).toLowerCase();
    return isHeaderName(from) && isHeaderName(to) ? { ...operation, from, to } : undefined;
  }
  if (mode === 'pass_headers') {
    const headerNames = readHeaderNames(raw.value);
    return headerNames ? { ...operation, headerNames } : undefined;
  }
  if (mode === 'prune_objects') {
    const pruneRule = readPruneRule(raw.value);
    return pruneRule ? { ...operation, pruneRule } : undefined;
  }
  if (mode === 'sync_fields') {
    const from = readSyncTarget(operation.from);
    const to = readSyncTarget(operation.to);
    return from && to ? { ...operation, sync: { from, to } } : undefined;
  }
  if (mode === 'array_remove') {
    const match = isRecord(raw.match) ? raw.match : undefined;
    const eq = match?.eq;
    const scalar = typeof eq === 'string' || typeof eq === 'number' || typeof eq === 'boolean';
    return operation.path.trim() && typeof match?.path === 'string' && match.path.trim() && scalar
      ? { ...operation, match: { path: match.path.trim(), eq } }
      : undefined;
  }
  if (mode !== 'regex_replace') return operation;
  try {
    return { ...operation, pattern: new RegExp(operation.from, 'g') };
  } catch {
    return undefined;
  }
}

/**
 * The override a channel's parsed `param_override` describes; undefined for none (empty object),
 * 'invalid' for an operations list new-api would fail on (unknown mode, a bad regex).
 */
export function readParamOverride(value: unknown): ParamOverride | undefined | 'invalid' {
  if (!isRecord(value)) return 'invalid';
  const rawOperations = value.operations;
  // As new-api: an `operations` key that is not a list of operations is a classic key like any other.
  if (Array.isArray(rawOperations) && rawOperations.every((item) => isRecord(item) && typeof item.mode === 'string' && item.mode.trim() !== '')) {
    const operations = rawOperations.map(readOperation);
    if (operations.some((operation) => operation === undefined)) return 'invalid';
    return operations.length > 0 ? { kind: 'operations', operations: operations as OverrideOperation[] } : undefined;
  }
  return Object.keys(value).length > 0 ? { kind: 'classic', fields: value } : undefined;
}

const noHeaders: HeaderSources = { caller: {} };

/** A failed step: new-api fails the request on this channel (another may take it). */
class OperationFailure extends Error {}

const cloneJson = <T>(value: T): T => (value === undefined ? value : (structuredClone(value) as T));

/** prepend/append: arrays gain the value (its items when it is a list), strings the text, objects the keys. */
function joined(current: unknown, value: unknown, keepOrigin: boolean, before: boolean): unknown {
  if (Array.isArray(current)) {
    const added = Array.isArray(value) ? cloneJson(value) : [cloneJson(value)];
    return before ? [...added, ...current] : [...current, ...added];
  }
  if (typeof current === 'string') {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return before ? text + current : current + text;
  }
  if (isRecord(current) && isRecord(value)) {
    const merged: Record<string, unknown> = { ...current };
    for (const [key, added] of Object.entries(value)) if (!keepOrigin || merged[key] === undefined || merged[key] === null) merged[key] = cloneJson(added);
    return merged;
  }
  throw new OperationFailure(`${before ? 'prepend' : 'append'}: the value at the path is not an array, a string or an object`);
}

/** The string operations: a value that is not a string (or is missing) is left alone. */
function stringResult(operation: OverrideOperation, current: string): string {
  const affix = typeof operation.value === 'string' ? operation.value : '';
  switch (operation.mode) {
    case 'trim_prefix':
      return affix && current.startsWith(affix) ? current.slice(affix.length) : current;
    case 'trim_suffix':
      return affix && current.endsWith(affix) ? current.slice(0, -affix.length) : current;
    case 'ensure_prefix':
      return current.startsWith(affix) ? current : affix + current;
    case 'ensure_suffix':
      return current.endsWith(affix) ? current : current + affix;
    case 'trim_space':
      return current.trim();
    case 'to_lower':
      return current.toLowerCase();
    case 'to_upper':
      return current.toUpperCase();
    case 'replace':
      return operation.from ? current.split(operation.from).join(operation.to) : current;
    case 'regex_replace':
      return operation.pattern ? current.replace(operation.pattern, operation.to) : current;
    default:
      return current;
  }
}

function refusalOf(value: unknown, fallback: string): OverrideRefusal {
  const spec = isRecord(value) ? value : { message: typeof value === 'string' ? value : '' };
  const status = Number(spec.status_code);
  return {
    status: Number.isInteger(status) && status >= 400 && status <= 599 ? status : 400,
    code: stringOf(spec.code) || 'param_override_refused',
    type: stringOf(spec.type) || 'invalid_request_error',
    message: stringOf(spec.message).trim() || fallback,
    // The administrator blocked this request on purpose: no other channel unless the rule says so.
    retryable: spec.skip_retry === false,
  };
}

/**
 * array_remove: drops the objects of a list whose field at `match.path` (within the item) is
 * `match.eq`, of the same type (`"1"` is not `1`); a missing or null field never matches.
 */
function removeMatching(items: unknown[], match: NonNullable<OverrideOperation['match']>): boolean {
  const before = items.length;
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (isRecord(item) && getPath(item, match.path).value === match.eq) items.splice(index, 1);
  }
  return items.length !== before;
}

/** Runs one operation on the body; true when it changed something, a refusal when it stops the request. */
function runOperation(
  body: Record<string, unknown>,
  operation: OverrideOperation,
  headerEdits: HeaderEdits,
  sources: HeaderSources,
): boolean | OverrideRefusal {
  const { mode, path } = operation;
  switch (mode) {
    case 'copy_header':
    case 'move_header':
      if (copyHeader(operation.from, operation.to, operation.keepOrigin, headerEdits, sources) && mode === 'move_header' && operation.from !== operation.to)
        headerEdits.set(operation.from, undefined);
      return false;
    case 'pass_headers':
      for (const name of operation.headerNames ?? []) copyHeader(name, name, operation.keepOrigin, headerEdits, sources);
      return false;
    case 'prune_objects': {
      const target = getPath(body, path);
      return target.found && operation.pruneRule !== undefined && pruneObjects(target.value, operation.pruneRule);
    }
    case 'sync_fields':
      return operation.sync !== undefined && syncFields(operation.sync.from, operation.sync.to, body, headerEdits, sources);
    case 'array_remove': {
      const target = getPath(body, path).value;
      return Array.isArray(target) && operation.match !== undefined && removeMatching(target, operation.match);
    }
    case 'set_header':
      headerEdits.set(path.toLowerCase(), headerValue(operation.value));
      return false;
    case 'delete_header':
      headerEdits.set(path.toLowerCase(), undefined);
      return false;
    case 'return_error':
      return refusalOf(operation.value, 'request blocked by param override');
    case 'block':
      return refusalOf(undefined, 'request blocked by param override conditions');
    case 'pass':
      return false;
    case 'set':
      if (operation.keepOrigin && getPath(body, path).found) return false;
      return setPath(body, path, cloneJson(operation.value));
    case 'delete':
      return deletePath(body, path);
    case 'move':
    case 'copy': {
      const source = getPath(body, operation.from);
      if (!source.found) throw new OperationFailure(`${mode}: nothing at ${operation.from}`);
      const value = cloneJson(source.value);
      if (mode === 'move') deletePath(body, operation.from);
      return setPath(body, operation.to, value);
    }
    case 'prepend':
    case 'append': {
      const current = getPath(body, path);
      return setPath(body, path, current.found ? joined(current.value, operation.value, operation.keepOrigin, mode === 'prepend') : cloneJson(operation.value));
    }
    default: {
      const current = getPath(body, path);
      if (typeof current.value !== 'string') return false;
      const next = stringResult(operation, current.value);
      return next !== current.value && setPath(body, path, next);
    }
  }
}

/**
 * Applies the override to the body the upstream gets (edited in place). A failing step refuses the
 * request on this channel as new-api does; `pass` stops the list with what is done so far.
 */
export function applyParamOverride(body: Record<string, unknown>, override: ParamOverride, sources: HeaderSources = noHeaders): OverrideOutcome {
  if (override.kind === 'classic') {
    for (const [key, value] of Object.entries(override.fields)) body[key] = cloneJson(value);
    return { changed: true };
  }
  let changed = false;
  const headerEdits: HeaderEdits = new Map();
  try {
    for (const operation of override.operations) {
      if (!conditionsHold(body, operation.conditions, operation.logic)) continue;
      if (operation.mode === 'pass') break;
      // A wildcard path runs the operation once per path it names now (none: the operation is skipped).
      const paths = operation.wildcard ? expandWildcardPath(body, operation.path) : undefined;
      for (const path of paths ?? [operation.path]) {
        const result = runOperation(body, paths ? { ...operation, path } : operation, headerEdits, sources);
        if (typeof result === 'object') return { refused: result };
        changed ||= result;
      }
    }
  } catch (error) {
    if (!(error instanceof OperationFailure)) throw error;
    return {
      refused: {
        status: 500,
        code: 'channel_param_override_invalid',
        type: 'new_api_error',
        message: `channel param override: ${error.message}`,
        retryable: true,
      },
    };
  }
  return { changed, ...(headerEdits.size > 0 ? { headerEdits } : {}) };
}
