import { keyedLogContent } from '../../../domain/logs/log-content.ts';

/** A row's `content` (new-api's Chinese) and `other` (the message key and params for the console). */
export type ChannelAuditContent = ReturnType<typeof keyedLogContent>;

/** What an administrator did to every channel of a tag (`PUT /api/channel/tag`, `POST /api/channel/tag/{enabled,disabled}`). */
export type TagAction = 'edit' | 'enable' | 'disable';

const tagActionText: Record<TagAction, string> = { edit: '编辑了标签渠道', enable: '启用了标签渠道', disable: '禁用了标签渠道' };
const tagActionKey = { edit: 'log.tag_channels_edited', enable: 'log.tag_channels_enabled', disable: 'log.tag_channels_disabled' } as const;

/**
 * The audit rows (type 3) of administrator actions on channels, each written in new-api's Chinese and
 * named by a message key so the console shows it in its reader's language (logs/log-content.ts).
 */
export const channelAudit = {
  keyViewed: (admin: string, id: number, name: string): ChannelAuditContent =>
    keyedLogContent(`超级管理员 ${admin} 查看了渠道 #${id}（${name}）的密钥`, 'log.channel_key_viewed', { admin, id, name }),

  created: (name: string, ids: readonly number[]): ChannelAuditContent =>
    keyedLogContent(`管理员创建了 ${ids.length} 个渠道：${name}（ID ${ids.join(', ')}）`, 'log.channels_created', {
      count: ids.length,
      name,
      ids: ids.join(', '),
    }),

  copied: (id: number, copyId: number): ChannelAuditContent =>
    keyedLogContent(`管理员复制了渠道 #${id}，新渠道 #${copyId}`, 'log.channel_copied', { id, copy_id: copyId }),

  /** `columns`: the changed columns but the key, whose change is said without its value. */
  updated: (id: number, columns: readonly string[], keyChanged: boolean): ChannelAuditContent =>
    keyedLogContent(
      `管理员修改了渠道 #${id}：${columns.join(', ')}${keyChanged ? '（含密钥）' : ''}`,
      keyChanged ? 'log.channel_updated_with_key' : 'log.channel_updated',
      { id, fields: columns.join(', ') },
    ),

  deleted: (count: number, ids: readonly number[]): ChannelAuditContent =>
    keyedLogContent(`管理员删除了 ${count} 个渠道（ID ${ids.join(', ')}）`, 'log.channels_deleted', { count, ids: ids.join(', ') }),

  disabledDeleted: (count: number): ChannelAuditContent =>
    keyedLogContent(`管理员删除了全部已禁用渠道，共 ${count} 个`, 'log.disabled_channels_deleted', { count }),

  tagged: (count: number, tag: string): ChannelAuditContent =>
    keyedLogContent(`管理员为 ${count} 个渠道设置了标签 ${tag}`, 'log.channels_tagged', { count, tag }),

  abilitiesRepaired: (count: number): ChannelAuditContent =>
    keyedLogContent(`管理员修复了渠道能力表，共 ${count} 个渠道`, 'log.channel_abilities_repaired', { count }),

  tagChanged: (action: TagAction, tag: string, count: number): ChannelAuditContent =>
    keyedLogContent(`管理员${tagActionText[action]}（标签 ${tag}，${count} 个渠道）`, tagActionKey[action], { tag, count }),
};
