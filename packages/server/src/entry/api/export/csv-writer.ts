/** One CSV cell: text is quoted as needed, numbers and booleans written as they are, null empty. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (and tab or carriage return
 * can hide one), so such text gets a leading apostrophe (OWASP "CSV injection"). Numbers are written
 * by `csvField` from numbers, so a negative amount stays a number.
 */
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]|^\s|\s$/;

/** Excel reads a UTF-8 file without this mark in the local code page, garbling Chinese. */
export const utf8ByteOrderMark = '\uFEFF';

/** One field as RFC 4180 writes it, text defused against formula injection. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 says. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** A column of an export: its header in the chosen language and how one row gives its cell. */
export interface CsvColumn<Row> {
  header: string;
  cell(row: Row): CsvCell;
}

/**
 * The whole file as chunks: the header line first, then one chunk per batch of rows. Whoever reads the
 * chunks sets the pace (a stream pulls the next batch only when the client took the last), so the
 * memory held is one batch, whatever the number of rows.
 */
export async function* csvChunks<Row>(columns: ReadonlyArray<CsvColumn<Row>>, batches: AsyncIterable<readonly Row[]>): AsyncGenerator<string> {
  yield utf8ByteOrderMark + csvRecord(columns.map((column) => column.header));
  for await (const batch of batches) {
    let chunk = '';
    for (const row of batch) chunk += csvRecord(columns.map((column) => column.cell(row)));
    if (chunk) yield chunk;
  }
}
