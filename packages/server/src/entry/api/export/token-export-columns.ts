import { tokenExportHeaders as headers } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import type { TokenRow } from '../../../core/db/schema.ts';
import { maskTokenKey } from '../token/token-view.ts';
import type { CsvColumn } from './csv-writer.ts';
import { column, exportTime, type ExportLocale } from './export-format.ts';

export const tokenExportFields = [
  'id',
  'name',
  'key',
  'status',
  'group',
  'used_quota',
  'remain_quota',
  'unlimited_quota',
  'created_time',
  'accessed_time',
  'expired_time',
] as const;
export type TokenExportRow = Pick<TokenRow, (typeof tokenExportFields)[number]>;

/** The key only masked: a file is copied and mailed around; the full key is revealed one at a time. */
export function tokenExportColumns(locale: ExportLocale): Array<CsvColumn<TokenExportRow>> {
  const at = <Key extends keyof typeof headers>(key: Key, cell: CsvColumn<TokenExportRow>['cell']) => column(headers[key], locale, cell);
  return [
    at('id', (token) => token.id),
    at('name', (token) => token.name),
    at('key', (token) => `sk-${maskTokenKey(token.key)}`),
    at('status', (token) => token.status),
    at('group', (token) => token.group),
    at('used_quota', (token) => Number(token.used_quota)),
    at('remain_quota', (token) => Number(token.remain_quota)),
    at('unlimited_quota', (token) => toBoolean(token.unlimited_quota)),
    at('created_time', (token) => exportTime(Number(token.created_time), locale)),
    at('accessed_time', (token) => exportTime(Number(token.accessed_time), locale)),
    at('expired_time', (token) => exportTime(Number(token.expired_time), locale)),
  ];
}
