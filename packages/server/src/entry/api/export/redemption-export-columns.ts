import { redemptionExportHeaders as headers } from '@switchboard/contracts';
import type { RedemptionRow } from '../../../core/db/schema.ts';
import type { CsvColumn } from './csv-writer.ts';
import { column, exportTime, type ExportLocale } from './export-format.ts';

export const redemptionExportFields = ['id', 'name', 'key', 'status', 'quota', 'created_time', 'redeemed_time', 'used_user_id', 'expired_time'] as const;
export type RedemptionExportRow = Pick<RedemptionRow, (typeof redemptionExportFields)[number]>;

/**
 * With the code itself: administrators export codes to hand them out, and the code list shows them
 * the codes already (new-api's list returns the key to administrators).
 */
export function redemptionExportColumns(locale: ExportLocale): Array<CsvColumn<RedemptionExportRow>> {
  const at = <Key extends keyof typeof headers>(key: Key, cell: CsvColumn<RedemptionExportRow>['cell']) => column(headers[key], locale, cell);
  return [
    at('id', (code) => code.id),
    at('name', (code) => code.name),
    at('key', (code) => code.key),
    at('status', (code) => code.status),
    at('quota', (code) => Number(code.quota)),
    at('created_time', (code) => exportTime(Number(code.created_time), locale)),
    at('redeemed_time', (code) => exportTime(Number(code.redeemed_time), locale)),
    at('used_user_id', (code) => Number(code.used_user_id) || ''),
    at('expired_time', (code) => exportTime(Number(code.expired_time), locale)),
  ];
}
