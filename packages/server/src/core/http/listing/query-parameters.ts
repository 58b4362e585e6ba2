import { wholeNumberText } from '@switchboard/contracts';
import { fieldRefusal } from './parse-input.ts';
import { inputMessages } from './input.messages.ts';

/**
 * One query parameter as text ('' when absent; the first value when repeated). U+0000 is refused
 * here, since a search for it fails on PostgreSQL instead of finding nothing.
 */
export function queryText(query: unknown, name: string): string {
  if (typeof query !== 'object' || query === null) return '';
  const value = (query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (typeof first !== 'string') return '';
  if (first.includes('\u0000')) throw fieldRefusal(name, inputMessages.nulCharacter);
  return first;
}

/** A query parameter as trimmed text ('' when absent), since search boxes are trimmed. */
export function textParameter(query: unknown, name: string): string {
  return queryText(query, name).trim();
}

/**
 * A whole-number query parameter that is not a list filter (what a deletion acts on): undefined when
 * absent or empty; anything but plain digits is a 400.
 */
export function integerParameter(query: unknown, name: string): number | undefined {
  const text = queryText(query, name).trim();
  if (text === '') return undefined;
  const parsed = wholeNumberText.safeParse(text);
  if (!parsed.success) throw fieldRefusal(name);
  return parsed.data;
}

/**
 * A whole-number list filter (a time, a log type, a channel): undefined when absent, empty or not
 * plain digits. new-api reads list filters with a parse whose failure is zero, that is no filter, and
 * its classic task page sends `end_timestamp=NaN` until a range is picked: a filter that cannot be
 * read narrows nothing instead of failing the page. Bodies of creates and updates stay strict
 * (parse-input.ts), and so does the page number (page-query.ts).
 */
export function listFilterNumber(query: unknown, name: string): number | undefined {
  const parsed = wholeNumberText.safeParse(queryText(query, name).trim());
  return parsed.success ? parsed.data : undefined;
}

/** `true`/`1` in a query string, as Go's strconv.ParseBool reads it. */
export function booleanParameter(query: unknown, name: string): boolean {
  const value = queryText(query, name);
  return value === 'true' || value === '1' || value === 'True' || value === 'TRUE' || value === 't';
}
