import { logExportHeaders as headers, logTypeNames } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import type { LogRow } from '../../../core/db/log-schema.ts';
import type { CsvColumn } from './csv-writer.ts';
import { column, exportTime, type ExportLocale } from './export-format.ts';

/** A log row and, for administrators, its channel's name (looked up once per batch). */
export interface LogExportRow {
  log: LogRow;
  channelName: string;
}

/**
 * The log page's columns; channel ones for administrators only (as on the page). `other` (billing
 * details, administrator info) stays out: it is JSON for the page's detail view, not a column.
 */
export function logExportColumns(locale: ExportLocale, admin: boolean): Array<CsvColumn<LogExportRow>> {
  const at = <Key extends keyof typeof headers>(key: Key, cell: CsvColumn<LogExportRow>['cell']) => column(headers[key], locale, cell);
  return [
    at('id', ({ log }) => log.id),
    at('created_at', ({ log }) => exportTime(Number(log.created_at), locale)),
    ...(admin ? [at('channel', ({ log }) => Number(log.channel_id) || ''), at('channel_name', ({ channelName }) => channelName)] : []),
    at('username', ({ log }) => log.username),
    at('token_name', ({ log }) => log.token_name),
    at('group', ({ log }) => log.group),
    at('type', ({ log }) => logTypeNames[log.type]?.[locale.language] ?? log.type),
    at('model_name', ({ log }) => log.model_name),
    at('use_time', ({ log }) => log.use_time),
    at('is_stream', ({ log }) => toBoolean(log.is_stream)),
    at('prompt_tokens', ({ log }) => Number(log.prompt_tokens)),
    at('completion_tokens', ({ log }) => Number(log.completion_tokens)),
    at('quota', ({ log }) => Number(log.quota)),
    at('content', ({ log }) => log.content ?? ''),
    at('ip', ({ log }) => log.ip),
    at('request_id', ({ log }) => log.request_id),
  ];
}
