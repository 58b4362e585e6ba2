import { NameRule, type NameRuleValue } from '@switchboard/contracts';

/** The part of a catalogue row that decides which served model names it describes. */
export interface NamedRule {
  readonly model_name: string;
  readonly name_rule: number;
}

/** new-api's name rules (model/model_meta.go): exact, prefix, contains, suffix; case-sensitive as there. */
export function ruleMatches(rule: NamedRule, servedName: string): boolean {
  switch (rule.name_rule as NameRuleValue) {
    case NameRule.prefix:
      return servedName.startsWith(rule.model_name);
    case NameRule.contains:
      return servedName.includes(rule.model_name);
    case NameRule.suffix:
      return servedName.endsWith(rule.model_name);
    default:
      return servedName === rule.model_name;
  }
}

/**
 * The catalogue row that describes a served model: its exact row, else the first prefix rule, then
 * suffix, then contains (the order of new-api's updatePricing), each in the order given.
 */
export function describingRow<T extends NamedRule>(rows: readonly T[], servedName: string): T | undefined {
  const exact = rows.find((row) => row.name_rule === NameRule.exact && row.model_name === servedName);
  if (exact) return exact;
  for (const rule of [NameRule.prefix, NameRule.suffix, NameRule.contains]) {
    const found = rows.find((row) => row.name_rule === rule && ruleMatches(row, servedName));
    if (found) return found;
  }
  return undefined;
}
