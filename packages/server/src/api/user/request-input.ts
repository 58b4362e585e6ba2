import type { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { commonMessages } from '../../messages/catalogue.ts';

/** One query parameter as text ('' when absent; the first value when repeated). */
export function queryText(query: unknown, name: string): string {
  if (typeof query !== 'object' || query === null) return '';
  const value = (query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** A 0-based page number and a page size within 1..100 (user lists page from 0, as classic new-api). */
export function pageOf(query: unknown, defaultSize: number): { offset: number; limit: number } {
  const page = Math.max(0, Math.floor(Number(queryText(query, 'p')) || 0));
  const requested = Number(queryText(query, 'page_size') || queryText(query, 'size') || queryText(query, 'ps')) || defaultSize;
  const limit = Math.min(100, Math.max(1, Math.floor(requested)));
  return { offset: page * limit, limit };
}

/** Parses a body with a contracts schema; anything malformed is the generic "invalid parameter". */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new AppError(commonMessages.invalidParameter);
  return parsed.data;
}
