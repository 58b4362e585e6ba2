import type { ExportHeader } from '@switchboard/contracts';
import type { Language } from '../../../core/messages/catalogue.ts';
import type { CsvCell, CsvColumn } from './csv-writer.ts';

/** How an export is written for its reader: header language and the clock times are shown in. */
export interface ExportLocale {
  language: Language;
  /** Minutes east of UTC (the console sends its own, so the file shows the times its table shows). */
  utcOffsetMinutes: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` at the reader's offset, a form every spreadsheet reads as a date; '' for "never" (0 or -1). */
export function exportTime(seconds: number, locale: ExportLocale): string {
  if (!(seconds > 0)) return '';
  const shifted = new Date((seconds + locale.utcOffsetMinutes * 60) * 1000);
  const date = `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  return `${date} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

/** A column whose header is the shared header in the reader's language. */
export function column<Row>(header: ExportHeader, locale: ExportLocale, cell: (row: Row) => CsvCell): CsvColumn<Row> {
  return { header: header[locale.language], cell };
}
