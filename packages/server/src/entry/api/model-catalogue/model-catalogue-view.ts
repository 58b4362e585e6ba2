import { type BoundChannel, type ModelMetaView, NameRule, type NameRuleValue, type VendorView } from '@switchboard/contracts';
import type { ModelRow, ServedAbility, VendorRow } from './model-catalogue.repository.ts';
import { ruleMatches } from './name-rule.ts';

const nameRuleOf = (value: number): NameRuleValue => (value === 1 || value === 2 || value === 3 ? value : NameRule.exact);

/** Who serves what: the bound channels and groups of each served model name. */
export class ServedIndex {
  private readonly channels = new Map<string, Map<string, BoundChannel>>();
  private readonly groups = new Map<string, Set<string>>();

  constructor(abilities: readonly ServedAbility[]) {
    for (const ability of abilities) {
      const channels = this.channels.get(ability.model) ?? new Map<string, BoundChannel>();
      channels.set(`${ability.channel_name}|${ability.channel_type}`, { name: ability.channel_name, type: Number(ability.channel_type) });
      this.channels.set(ability.model, channels);
      this.groups.set(ability.model, (this.groups.get(ability.model) ?? new Set()).add(ability.group));
    }
  }

  get modelNames(): string[] {
    return [...this.channels.keys()].sort();
  }

  /** Channels and groups over the given served names, each listed once. */
  over(names: readonly string[]): { bound_channels: BoundChannel[]; enable_groups: string[] } {
    const channels = new Map<string, BoundChannel>();
    const groups = new Set<string>();
    for (const name of names) {
      for (const [key, channel] of this.channels.get(name) ?? []) channels.set(key, channel);
      for (const group of this.groups.get(name) ?? []) groups.add(group);
    }
    return { bound_channels: [...channels.values()], enable_groups: [...groups].sort() };
  }
}

/** A row as new-api's console reads it, with the channels and groups that serve it. */
export function toModelView(row: ModelRow, served: ServedIndex): ModelMetaView {
  const nameRule = nameRuleOf(Number(row.name_rule));
  const rule = { model_name: row.model_name, name_rule: nameRule };
  const matched = nameRule === NameRule.exact ? undefined : served.modelNames.filter((name) => ruleMatches(rule, name));
  return {
    id: Number(row.id),
    model_name: row.model_name,
    description: row.description ?? '',
    icon: row.icon ?? '',
    tags: row.tags ?? '',
    vendor_id: Number(row.vendor_id),
    endpoints: row.endpoints ?? '',
    status: Number(row.status),
    sync_official: Number(row.sync_official),
    name_rule: nameRule,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
    ...served.over(matched ?? [row.model_name]),
    ...(matched ? { matched_models: matched, matched_count: matched.length } : {}),
  };
}

export function toVendorView(row: VendorRow, modelCounts: ReadonlyMap<number, number>): VendorView {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? '',
    icon: row.icon ?? '',
    status: Number(row.status),
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
    model_count: modelCounts.get(Number(row.id)) ?? 0,
  };
}
