import { ChannelStatus, findChannelType, splitChannelKeys } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { Provider } from '../provider.ts';
import { providerForChannelType } from '../providers/index.ts';
import { isTaskChannelType } from '../task-channel-types.ts';
import type { AbilityRow, ChannelRow, RelayCacheRepository } from './relay-cache.repository.ts';
import { firstByteTimeoutSetting, usageLimitsSetting, type ChannelUsageLimits } from './channel-settings.ts';
import { readMultiKeyInfo, type MultiKeyInfo } from './multi-key-info.ts';
import { readChannelShaping, type ChannelShaping, type ShapingField } from '../pipeline/channel-request-shaping/channel-shaping.ts';

/** An upstream channel as the relay needs it, with its JSON columns parsed once. */
export interface ChannelRecord {
  readonly id: number;
  readonly type: number;
  readonly name: string;
  status: number;
  /**
   * One key, or several (one per line) of which each request uses one: at random, or in turn when
   * `multiKey` says polling (routing/key-choice.ts). JSON credentials
   * (a pretty-printed Vertex service account) are one key, as the console's batch mode treats them.
   */
  readonly keys: readonly string[];
  readonly baseUrl: string;
  readonly organization: string;
  readonly other: string;
  readonly modelMapping: Readonly<Record<string, string>>;
  readonly statusCodeMapping: Readonly<Record<string, string>>;
  readonly autoBan: boolean;
  readonly priority: number;
  readonly weight: number;
  readonly testModel: string;
  readonly models: readonly string[];
  readonly groups: readonly string[];
  otherInfo: string;
  /** The channel's own first-byte timeout (`first_byte_timeout` in its setting JSON), when it sets one. */
  readonly firstByteTimeoutMs?: number | undefined;
  /** new-api's multi-key mode (`channel_info`); undefined for a channel not in it (keys then drawn at random). */
  readonly multiKey?: MultiKeyInfo | undefined;
  /** RPM/TPM ceilings of the channel and of each key (`setting` JSON), which the usage-aware strategy stays under. */
  readonly usageLimits?: ChannelUsageLimits | undefined;
  /** How the channel reshapes what it is sent (param/header override, system prompt, removed fields); absent: nothing. */
  readonly shaping?: ChannelShaping | undefined;
  /** Undefined when the type is not relayed by a provider: only task channels are then selected (by the task relays). */
  readonly provider: Provider | undefined;
}

export interface WeightedChannel {
  readonly channel: ChannelRecord;
  readonly weight: number;
}

/**
 * Channels of one priority, highest tier first in a route. Tiers built by the cache carry their
 * running weight totals (`cumulativeWeights`), so a weighted draw is a binary search, not a walk.
 */
export interface PriorityTier {
  readonly priority: number;
  readonly channels: readonly WeightedChannel[];
  readonly cumulativeWeights?: Float64Array;
}

/**
 * A tier with its running weight totals; all-zero weights count as equal (1 each), as the
 * selector treats them.
 */
export function weightedTier(priority: number, channels: readonly WeightedChannel[]): PriorityTier {
  const cumulativeWeights = new Float64Array(channels.length);
  const allZero = channels.every((entry) => entry.weight <= 0);
  let total = 0;
  channels.forEach((entry, index) => {
    total += allZero ? 1 : Math.max(0, entry.weight);
    cumulativeWeights[index] = total;
  });
  return { priority, channels, cumulativeWeights };
}

function stringMap(text: string | null): Record<string, string> {
  if (!text?.trim()) return {};
  const parsed = safeParseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return {};
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.value)) if (typeof value === 'string' || typeof value === 'number') result[key] = String(value);
  return result;
}

const splitList = (text: string | null): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Told once per channel load about JSON columns that could not be read (the column names only: the text may hold secrets). */
export type InvalidShapingListener = (channelId: number, fields: readonly ShapingField[]) => void;

export function toChannelRecord(row: ChannelRow, onInvalidShaping?: InvalidShapingListener): ChannelRecord {
  const shaping = readChannelShaping(row);
  if (shaping.invalid.length > 0) onInvalidShaping?.(row.id, shaping.invalid);
  const firstByteSeconds = firstByteTimeoutSetting(row.setting);
  const usageLimits = usageLimitsSetting(row.setting);
  const baseUrl = (row.base_url || findChannelType(row.type)?.defaultBaseUrl || '').replace(/\/+$/, '');
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    status: row.status,
    keys: splitChannelKeys(row.key),
    baseUrl,
    organization: row.open_ai_organization ?? '',
    other: row.other ?? '',
    modelMapping: stringMap(row.model_mapping),
    statusCodeMapping: stringMap(row.status_code_mapping),
    autoBan: row.auto_ban === 1,
    priority: Number(row.priority) || 0,
    weight: Number(row.weight) || 0,
    testModel: row.test_model ?? '',
    models: splitList(row.models),
    groups: splitList(row.group),
    otherInfo: row.other_info ?? '',
    firstByteTimeoutMs: typeof firstByteSeconds === 'number' ? firstByteSeconds * 1000 : undefined,
    multiKey: readMultiKeyInfo(row.channel_info),
    usageLimits: usageLimits === 'invalid' ? undefined : usageLimits,
    shaping: shaping.shaping,
    provider: providerForChannelType(row.type),
  };
}

/**
 * All channels and the routing index group → model → priority tiers, in memory. The index is built
 * from the enabled abilities of enabled channels whose type a provider relays, so a disabled channel
 * is never a candidate. Any change to channels (console, auto-disable, another instance) arrives on
 * the change bus and rebuilds the whole index: channels are few, requests are many. A request's
 * lookup is two map reads whatever the number of channels (the selector then draws inside the tier).
 */
export class ChannelCache {
  private channels = new Map<number, ChannelRecord>();
  private routes = new Map<string, Map<string, PriorityTier[]>>();
  private readonly repository: RelayCacheRepository;
  private loading: Promise<void> | undefined;
  private loadAgain = false;
  /**
   * Statuses set in memory whose database write has not finished yet. A reload that read the rows
   * before the write committed would otherwise put an auto-disabled channel back into routing.
   */
  private readonly unwrittenStatuses = new Map<number, { status: number; otherInfo: string | undefined }>();

  private readonly onInvalidShaping: InvalidShapingListener | undefined;

  constructor(repository: RelayCacheRepository, onInvalidShaping?: InvalidShapingListener) {
    this.repository = repository;
    this.onInvalidShaping = onInvalidShaping;
  }

  /** Reloads everything; calls during a reload make one more reload after it. */
  async reload(): Promise<void> {
    if (this.loading) {
      this.loadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.loadAgain = false;
        const [channelRows, abilityRows] = await Promise.all([this.repository.allChannels(), this.repository.allAbilities()]);
        this.build(
          channelRows.map((row) => toChannelRecord(row, this.onInvalidShaping)),
          abilityRows,
        );
      } while (this.loadAgain);
    })().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  get(id: number): ChannelRecord | undefined {
    return this.channels.get(id);
  }

  all(): ChannelRecord[] {
    return [...this.channels.values()];
  }

  /** The priority tiers that serve a model in a group, highest first (empty when none). */
  tiers(group: string, model: string): readonly PriorityTier[] {
    return this.routes.get(group)?.get(model) ?? [];
  }

  /** The models that have at least one usable channel in a group. */
  modelsOf(group: string): string[] {
    return [...(this.routes.get(group)?.keys() ?? [])];
  }

  /**
   * Marks a channel disabled or enabled in memory at once. The database write follows; until
   * `statusWritten(id)` says it is done, reloads keep this status.
   */
  setStatus(id: number, status: number, otherInfo?: string): void {
    this.unwrittenStatuses.set(id, { status, otherInfo });
    this.applyStatus(id, status, otherInfo);
  }

  /** The status set by `setStatus` is in the database (or its write failed): rows are the truth again. */
  statusWritten(id: number): void {
    this.unwrittenStatuses.delete(id);
    // A reload in flight may have read the rows before the write: read them once more.
    if (this.loading) this.loadAgain = true;
  }

  private applyStatus(id: number, status: number, otherInfo: string | undefined): void {
    const channel = this.channels.get(id);
    if (!channel) return;
    channel.status = status;
    if (otherInfo !== undefined) channel.otherInfo = otherInfo;
    if (status !== ChannelStatus.enabled) {
      for (const models of this.routes.values()) {
        for (const [model, tiers] of models) {
          const kept = tiers
            .map((tier) =>
              weightedTier(
                tier.priority,
                tier.channels.filter((entry) => entry.channel.id !== id),
              ),
            )
            .filter((tier) => tier.channels.length > 0);
          if (kept.length === 0) models.delete(model);
          else models.set(model, kept);
        }
      }
    }
  }

  private build(channels: ChannelRecord[], abilities: AbilityRow[]): void {
    const byId = new Map(channels.map((channel) => [channel.id, channel]));
    for (const [id, unwritten] of this.unwrittenStatuses) {
      const channel = byId.get(id);
      if (!channel) continue;
      channel.status = unwritten.status;
      if (unwritten.otherInfo !== undefined) channel.otherInfo = unwritten.otherInfo;
    }
    const grouped = new Map<string, Map<string, Map<number, WeightedChannel[]>>>();
    for (const ability of abilities) {
      if (!toBoolean(ability.enabled)) continue;
      const channel = byId.get(ability.channel_id);
      // Task channels have no provider: only the task relays (/mj, /suno) ask for their models.
      if (!channel || channel.status !== ChannelStatus.enabled || !(channel.provider || isTaskChannelType(channel.type))) continue;
      const models = grouped.get(ability.group) ?? new Map<string, Map<number, WeightedChannel[]>>();
      grouped.set(ability.group, models);
      const tiers = models.get(ability.model) ?? new Map<number, WeightedChannel[]>();
      models.set(ability.model, tiers);
      const priority = Number(ability.priority) || 0;
      const entries = tiers.get(priority) ?? [];
      entries.push({ channel, weight: Math.max(0, Number(ability.weight) || 0) });
      tiers.set(priority, entries);
    }
    const routes = new Map<string, Map<string, PriorityTier[]>>();
    for (const [group, models] of grouped) {
      const routeModels = new Map<string, PriorityTier[]>();
      for (const [model, tiers] of models) {
        routeModels.set(
          model,
          [...tiers.entries()].sort((a, b) => b[0] - a[0]).map(([priority, entries]) => weightedTier(priority, entries)),
        );
      }
      routes.set(group, routeModels);
    }
    this.channels = byId;
    this.routes = routes;
  }
}
