import { channelExportHeaders as headers, findChannelType } from '@switchboard/contracts';
import type { ChannelRow } from '../../../core/db/schema.ts';
import type { CsvColumn } from './csv-writer.ts';
import { column, exportTime, type ExportLocale } from './export-format.ts';

/** The channel fields an export reads. The key is not among them, so it cannot reach a file. */
export const channelExportFields = [
  'id',
  'name',
  'type',
  'status',
  'group',
  'models',
  'base_url',
  'tag',
  'priority',
  'weight',
  'response_time',
  'used_quota',
  'balance',
  'created_time',
  'test_time',
] as const;
export type ChannelExportRow = Pick<ChannelRow, (typeof channelExportFields)[number]>;

export function channelExportColumns(locale: ExportLocale): Array<CsvColumn<ChannelExportRow>> {
  const at = <Key extends keyof typeof headers>(key: Key, cell: CsvColumn<ChannelExportRow>['cell']) => column(headers[key], locale, cell);
  return [
    at('id', (channel) => channel.id),
    at('name', (channel) => channel.name),
    at('type', (channel) => findChannelType(channel.type)?.label ?? channel.type),
    at('status', (channel) => channel.status),
    at('group', (channel) => channel.group),
    at('models', (channel) => channel.models ?? ''),
    at('base_url', (channel) => channel.base_url ?? ''),
    at('tag', (channel) => channel.tag ?? ''),
    at('priority', (channel) => Number(channel.priority)),
    at('weight', (channel) => Number(channel.weight)),
    at('response_time', (channel) => Number(channel.response_time)),
    at('used_quota', (channel) => Number(channel.used_quota)),
    at('balance', (channel) => Number(channel.balance)),
    at('created_time', (channel) => exportTime(Number(channel.created_time), locale)),
    at('test_time', (channel) => exportTime(Number(channel.test_time), locale)),
  ];
}
