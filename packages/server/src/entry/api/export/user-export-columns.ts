import { userExportHeaders as headers } from '@switchboard/contracts';
import type { UserRow } from '../../../core/db/schema.ts';
import type { CsvColumn } from './csv-writer.ts';
import { column, exportTime, type ExportLocale } from './export-format.ts';

/** The user fields an export reads: never the password, access token or third-party ids. */
export const userExportFields = [
  'id',
  'username',
  'display_name',
  'email',
  'group',
  'role',
  'status',
  'quota',
  'used_quota',
  'request_count',
  'created_at',
] as const;
export type UserExportRow = Pick<UserRow, (typeof userExportFields)[number]>;

export function userExportColumns(locale: ExportLocale): Array<CsvColumn<UserExportRow>> {
  const at = <Key extends keyof typeof headers>(key: Key, cell: CsvColumn<UserExportRow>['cell']) => column(headers[key], locale, cell);
  return [
    at('id', (user) => user.id),
    at('username', (user) => user.username),
    at('display_name', (user) => user.display_name),
    at('email', (user) => user.email),
    at('group', (user) => user.group),
    at('role', (user) => user.role),
    at('status', (user) => user.status),
    at('quota', (user) => Number(user.quota)),
    at('used_quota', (user) => Number(user.used_quota)),
    at('request_count', (user) => Number(user.request_count)),
    at('created_at', (user) => exportTime(Number(user.created_at), locale)),
  ];
}
