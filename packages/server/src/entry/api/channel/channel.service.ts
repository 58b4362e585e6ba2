import { ChannelStatus, LogType, splitChannelKeys } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import type { ChannelUpdate, NewChannel } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ChannelFields } from './channel-input.ts';
import { channelColumnsFrom, checkCompleteChannel, checkKeyFormat, checkTypeAndGroups, defaultOther } from './channel-rules.ts';
import { type ChannelRepository, type ChannelRowWithoutKey, type ChannelSearch } from './channel.repository.ts';
import { channelMessages } from './channel.messages.ts';
import { channelAudit, type ChannelAuditContent, type TagAction } from './channel-audit-log.ts';

/** In batch mode each key line becomes its own channel (duplicates once); a JSON credential stays one key. */
function splitKeys(key: string, batch: boolean): string[] {
  return batch ? [...new Set(splitChannelKeys(key))] : [key.trim()];
}

export interface ChannelServiceDependencies {
  readonly repository: ChannelRepository;
  readonly bus: ChangeBus;
  readonly logWriter: LogWriter;
  readonly clock: Clock;
}

/** Channel rules: every write rebuilds the abilities in the same transaction, then tells the relay caches. */
export class ChannelService {
  private readonly repository: ChannelRepository;
  private readonly bus: ChangeBus;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;

  constructor(dependencies: ChannelServiceDependencies) {
    this.repository = dependencies.repository;
    this.bus = dependencies.bus;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
  }

  private async changed(ids: readonly number[]): Promise<void> {
    await this.bus.publish(changeTopics.channels, ids.length === 1 ? String(ids[0]) : '*');
  }

  /** Administrator actions on channels are audited as type 3 logs. */
  private async audit(admin: CurrentUser, content: ChannelAuditContent): Promise<void> {
    await this.logWriter.record({ user_id: admin.id, username: admin.username, type: LogType.manage, ...content });
  }

  async list(page: { offset: number; limit: number }, idSort: boolean, tagMode: boolean): Promise<ChannelRowWithoutKey[]> {
    if (!tagMode) return this.repository.list(page.offset, page.limit, idSort);
    const pageEntries = (await this.tagEntries(idSort)).slice(page.offset, page.offset + page.limit);
    const rows = await this.repository.listByIds(
      pageEntries.flatMap((entry) => entry.ids),
      idSort,
    );
    const position = new Map(pageEntries.flatMap((entry, index) => entry.ids.map((id) => [id, index] as const)));
    return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  }

  /** How many rows the list has: channels, or in tag mode tags plus untagged channels. */
  async count(tagMode: boolean): Promise<number> {
    return tagMode ? (await this.tagEntries(false)).length : this.repository.count();
  }

  /** Channel type → number of channels, as new-api's later list reports beside a page (`type_counts`). */
  typeCounts(): Promise<Record<string, number>> {
    return this.repository.typeCounts();
  }

  /** Every model some enabled channel serves (`GET /api/channel/models_enabled`). */
  enabledModels(): Promise<string[]> {
    return this.repository.enabledModels();
  }

  /** The tag-mode rows in list order: a tag row stands for all its channels; untagged channels are rows of their own. */
  private async tagEntries(idSort: boolean): Promise<Array<{ ids: number[]; priority: number; maxId: number }>> {
    const entries = new Map<string, { ids: number[]; priority: number; maxId: number }>();
    for (const channel of await this.repository.listTagOutline()) {
      const entryKey = channel.tag ? `tag:${channel.tag}` : `id:${channel.id}`;
      const entry = entries.get(entryKey) ?? { ids: [], priority: Number.NEGATIVE_INFINITY, maxId: 0 };
      entry.ids.push(channel.id);
      entry.priority = Math.max(entry.priority, Number(channel.priority));
      entry.maxId = Math.max(entry.maxId, channel.id);
      entries.set(entryKey, entry);
    }
    return [...entries.values()].sort((a, b) => (idSort ? b.maxId - a.maxId : b.priority - a.priority || b.maxId - a.maxId));
  }

  search(search: ChannelSearch, idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    return this.repository.search(search, idSort);
  }

  async get(id: number) {
    const channel = await this.repository.findById(id);
    if (!channel) throw new AppError(channelMessages.notFound);
    return channel;
  }

  /** The stored key, for the super administrator; each reveal is audited with who saw which channel. */
  async revealKey(root: CurrentUser, id: number): Promise<string> {
    const channel = await this.get(id);
    await this.audit(root, channelAudit.keyViewed(root.username, id, channel.name));
    return channel.key;
  }

  async create(admin: CurrentUser, fields: ChannelFields, batch: boolean): Promise<number[]> {
    const columns = channelColumnsFrom(fields, { clampWeight: false });
    checkTypeAndGroups(columns, true);
    const base: NewChannel = {
      type: columns.type ?? 0,
      key: columns.key ?? '',
      open_ai_organization: columns.open_ai_organization ?? '',
      test_model: columns.test_model ?? '',
      status: columns.status ?? ChannelStatus.enabled,
      name: columns.name ?? '',
      weight: columns.weight ?? 0,
      created_time: this.clock.unixSeconds(),
      test_time: 0,
      response_time: 0,
      base_url: columns.base_url ?? '',
      other: columns.other ?? '',
      balance: 0,
      balance_updated_time: 0,
      models: columns.models ?? '',
      group: columns.group ?? '',
      used_quota: 0,
      model_mapping: columns.model_mapping ?? '',
      status_code_mapping: columns.status_code_mapping ?? '',
      priority: columns.priority ?? 0,
      auto_ban: columns.auto_ban ?? 1,
      other_info: '',
      tag: columns.tag ?? null,
      setting: columns.setting ?? '',
      param_override: columns.param_override ?? '',
      header_override: columns.header_override ?? '',
      remark: columns.remark ?? '',
      settings: '',
      // NULL, not '': a database moved over from new-api has this column as `json`, where '' is not a value.
      channel_info: columns.channel_info ?? null,
    };
    checkCompleteChannel(base);
    checkKeyFormat(base.type ?? 0, base.key);
    base.other = defaultOther(base.type ?? 0, base.other) ?? base.other;
    const keys = splitKeys(base.key, batch);
    const ids = await this.repository.transaction(async (channels) => {
      const created: number[] = [];
      for (const key of keys) created.push(await channels.insert({ ...base, key }));
      await channels.rebuildAbilities(created);
      return created;
    });
    await this.changed(ids);
    await this.audit(admin, channelAudit.created(base.name ?? '', ids));
    return ids;
  }

  /** Duplicates a channel server-side, key included (the list the console copies from carries no key). */
  async copy(admin: CurrentUser, id: number, suffix: string, resetBalance: boolean): Promise<number> {
    const { id: _sourceId, ...source } = await this.get(id);
    const copyId = await this.repository.transaction(async (channels) => {
      const created = await channels.insert({
        ...source,
        name: `${source.name}${suffix}`,
        created_time: this.clock.unixSeconds(),
        test_time: 0,
        response_time: 0,
        ...(resetBalance ? { balance: 0, balance_updated_time: 0, used_quota: 0 } : {}),
      });
      await channels.rebuildAbilities([created]);
      return created;
    });
    await this.changed([copyId]);
    await this.audit(admin, channelAudit.copied(id, copyId));
    return copyId;
  }

  /** A full edit, or a row edit (`{id, status}`, `{id, priority}`, `{id, weight}`): only given fields change. */
  async update(admin: CurrentUser, id: number, fields: ChannelFields, rowEdit: boolean): Promise<void> {
    const columns = channelColumnsFrom(fields, { clampWeight: rowEdit });
    checkTypeAndGroups(columns, false);
    await this.repository.transaction(async (channels) => {
      const existing = await channels.findById(id);
      if (!existing) throw new AppError(channelMessages.notFound);
      const merged = { ...existing, ...columns };
      checkCompleteChannel(merged);
      // An edit that changes neither key nor type leaves an imported key alone, whatever its shape.
      if (columns.key !== undefined || columns.type !== undefined) checkKeyFormat(merged.type, merged.key);
      const other = defaultOther(merged.type ?? existing.type, merged.other);
      if (other !== undefined) columns.other = other;
      await channels.update(id, columns);
      await channels.rebuildAbilities([id]);
    });
    await this.changed([id]);
    const changed = Object.keys(columns).filter((column) => column !== 'key');
    await this.audit(admin, channelAudit.updated(id, changed, Boolean(columns.key)));
  }

  async delete(admin: CurrentUser, ids: readonly number[]): Promise<number> {
    const deleted = await this.repository.transaction(async (channels) => channels.deleteByIds(await channels.existingIds(ids)));
    if (deleted > 0) {
      await this.changed(ids);
      await this.audit(admin, channelAudit.deleted(deleted, ids));
    }
    return deleted;
  }

  async deleteOne(admin: CurrentUser, id: number): Promise<void> {
    if ((await this.delete(admin, [id])) === 0) throw new AppError(channelMessages.notFound);
  }

  async deleteDisabled(admin: CurrentUser): Promise<number> {
    const deleted = await this.repository.transaction(async (channels) => channels.deleteByIds(await channels.disabledIds()));
    if (deleted > 0) {
      await this.changed([]);
      await this.audit(admin, channelAudit.disabledDeleted(deleted));
    }
    return deleted;
  }

  async setTagOn(admin: CurrentUser, ids: readonly number[], tag: string): Promise<number> {
    const count = await this.repository.transaction(async (channels) => {
      const existing = await channels.existingIds(ids);
      await channels.updateMany(existing, { tag });
      await channels.rebuildAbilities(existing);
      return existing.length;
    });
    await this.changed(ids);
    await this.audit(admin, channelAudit.tagged(count, tag));
    return count;
  }

  async repairAbilities(admin: CurrentUser): Promise<number> {
    const count = await this.repository.rebuildAbilities('all');
    await this.changed([]);
    await this.audit(admin, channelAudit.abilitiesRepaired(count));
    return count;
  }

  /** Applies one change to every channel of a tag; answers how many channels it touched. */
  async updateTag(admin: CurrentUser, tag: string, columns: ChannelUpdate, action: TagAction): Promise<number> {
    const ids = await this.repository.transaction(async (channels) => {
      const tagged = await channels.idsByTag(tag);
      if (tagged.length === 0) throw new AppError(channelMessages.notFound);
      await channels.updateMany(tagged, columns);
      await channels.rebuildAbilities(tagged);
      return tagged;
    });
    await this.changed(ids);
    await this.audit(admin, channelAudit.tagChanged(action, tag, ids.length));
    return ids.length;
  }
}
