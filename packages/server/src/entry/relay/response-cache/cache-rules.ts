import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';
import { responseCacheMessages } from './response-cache.messages.ts';

/** One administrator rule of `ResponseCacheRules`, as stored (new-api style snake_case keys). */
export interface CacheRule {
  /** A model name, or a pattern where `*` stands for any text. */
  readonly model: string;
  /** Seconds an answer stays servable. */
  readonly ttl: number;
  /** The share of the original price a hit costs (0 = free, 1 = full price). */
  readonly hit_ratio: number;
  /** `shared`: one answer for every caller; `user`: each user has their own. */
  readonly scope: 'shared' | 'user';
  /** Answers larger than this are not stored. */
  readonly max_bytes: number;
  /** Also cache turns that carry tools (their answers may depend on tool state). */
  readonly tools: boolean;
  /** Also cache requests that sample several choices (`n > 1`). */
  readonly n: boolean;
}

export const defaultMaxAnswerBytes = 1024 * 1024;
const maxTtlSeconds = 30 * 24 * 3600;
const knownFields = new Set(['model', 'ttl', 'hit_ratio', 'scope', 'max_bytes', 'tools', 'n']);

export type RulesRead =
  { readonly ok: true; readonly rules: CacheRule[] } | { readonly ok: false; readonly message: LocalizedMessage; readonly params: Record<string, string> };

function badField(index: number, field: string, expected: string): RulesRead {
  return { ok: false, message: responseCacheMessages.ruleBadField, params: { index: String(index + 1), field, expected } };
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}

/** Reads `ResponseCacheRules` (already JSON-parsed) with a refusal that names the rule and the field. */
export function readCacheRules(json: unknown): RulesRead {
  if (!Array.isArray(json)) return { ok: false, message: responseCacheMessages.rulesNotList, params: {} };
  const rules: CacheRule[] = [];
  for (const [index, entry] of json.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return badField(index, 'rule', '{"model": …, "ttl": …}');
    const rule = entry as Record<string, unknown>;
    const unknown = Object.keys(rule).find((field) => !knownFields.has(field));
    if (unknown !== undefined) return { ok: false, message: responseCacheMessages.ruleUnknownField, params: { index: String(index + 1), field: unknown } };
    if (typeof rule.model !== 'string' || rule.model.trim() === '') return badField(index, 'model', 'a model name or pattern');
    if (!isWhole(rule.ttl, 1, maxTtlSeconds)) return badField(index, 'ttl', `whole seconds, 1 to ${maxTtlSeconds}`);
    const hitRatio = rule.hit_ratio ?? 1;
    if (typeof hitRatio !== 'number' || !Number.isFinite(hitRatio) || hitRatio < 0 || hitRatio > 1) return badField(index, 'hit_ratio', 'a number from 0 to 1');
    const scope = rule.scope ?? 'shared';
    if (scope !== 'shared' && scope !== 'user') return badField(index, 'scope', '"shared" or "user"');
    const maxBytes = rule.max_bytes ?? defaultMaxAnswerBytes;
    if (!isWhole(maxBytes, 1, 64 * 1024 * 1024)) return badField(index, 'max_bytes', 'whole bytes, 1 to 67108864');
    for (const flag of ['tools', 'n'] as const) if (rule[flag] !== undefined && typeof rule[flag] !== 'boolean') return badField(index, flag, 'true or false');
    rules.push({ model: rule.model.trim(), ttl: rule.ttl, hit_ratio: hitRatio, scope, max_bytes: maxBytes, tools: rule.tools === true, n: rule.n === true });
  }
  return { ok: true, rules };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The rules compiled once per option change: a request asks `match` (an exact-name map first, then
 * the patterns in order), and with no rule at all `empty` is the one check the relay makes.
 */
export class CompiledCacheRules {
  readonly empty: boolean;
  private readonly ordered: ReadonlyArray<{ readonly rule: CacheRule; readonly test: (model: string) => boolean }>;

  constructor(rules: readonly CacheRule[]) {
    this.empty = rules.length === 0;
    this.ordered = rules.map((rule) => {
      if (!rule.model.includes('*')) return { rule, test: (model: string) => model === rule.model };
      const pattern = new RegExp(`^${rule.model.split('*').map(escapeRegExp).join('.*')}$`);
      return { rule, test: (model: string) => pattern.test(model) };
    });
  }

  /** The first rule whose model matches, or undefined. */
  match(model: string): CacheRule | undefined {
    for (const entry of this.ordered) if (entry.test(model)) return entry.rule;
    return undefined;
  }
}
