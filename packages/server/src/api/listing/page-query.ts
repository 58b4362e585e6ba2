import type { Page } from '@switchboard/contracts';

const defaultPageSize = 10;
const maximumPageSize = 100;

function toInteger(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) ? parsed : undefined;
}

function clampPageSize(value: unknown): number {
  const size = toInteger(value);
  if (size === undefined || size <= 0) return defaultPageSize;
  return Math.min(size, maximumPageSize);
}

/**
 * The classic lists (channels, tokens, codes) page from 0 and answer an array; a missing or negative
 * page is the first one. `sizeParameter` differs per list (`page_size`, or `size` for tokens).
 */
export function zeroBasedPage(query: Record<string, unknown>, sizeParameter = 'page_size'): { offset: number; limit: number } {
  const page = Math.max(0, toInteger(query.p) ?? 0);
  const limit = clampPageSize(query[sizeParameter]);
  return { offset: page * limit, limit };
}

/** The log, drawing and task lists page from 1 and answer `{items, total, page, page_size}`. */
export function oneBasedPage(query: Record<string, unknown>): { page: number; pageSize: number; offset: number } {
  const page = Math.max(1, toInteger(query.p) ?? 1);
  const pageSize = clampPageSize(query.page_size ?? query.ps ?? query.size);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pageOf<T>(items: T[], total: number, page: number, pageSize: number): Page<T> {
  return { items, total, page, page_size: pageSize };
}

/** A query parameter as trimmed text ('' when absent), since search boxes are trimmed. */
export function textParameter(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A query parameter as an integer, or undefined when absent, empty or not a number. */
export function integerParameter(query: Record<string, unknown>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  return toInteger(value);
}

/** `true`/`1` in a query string, as Go's strconv.ParseBool reads it. */
export function booleanParameter(query: Record<string, unknown>, name: string): boolean {
  const value = query[name];
  return value === 'true' || value === '1' || value === 'True' || value === 'TRUE' || value === 't';
}
