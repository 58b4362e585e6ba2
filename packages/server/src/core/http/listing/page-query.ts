import type { FastifyRequest } from 'fastify';
import { wholeNumberText, type Page } from '@switchboard/contracts';
import { fieldRefusal } from './parse-input.ts';
import { queryText } from './query-parameters.ts';
import { inputMessages } from './input.messages.ts';
import { matchedRoute } from '../matched-route.ts';

/**
 * Which page number a list starts from: `from-zero` lists (top-ups) page from 0 and answer an array;
 * the log lists page from 1 and answer `{items, total, page, page_size}`; `by-dialect` lists (users,
 * tokens, channels, codes, drawings, tasks and their searches) do either, as the `PagedListsEnabled`
 * option says (list-dialect.ts). A list route declares it (`config: { paging }`), so the route table
 * knows every list and the page parser cannot be called by a route that does not say which.
 */
export type Paging = 'from-zero' | 'from-one' | 'by-dialect';

declare module 'fastify' {
  interface FastifyContextConfig {
    paging?: Paging;
  }
}

/**
 * Bounds that keep `offset = page × size` a small exact integer on every engine (at most 10⁹, inside
 * a 32-bit OFFSET). Sizes outside 1..100 fall back to the default or the maximum, as in new-api.
 */
export const pageLimits = { maximumPage: 10_000_000, maximumSize: 100, defaultSize: 10 } as const;

/** The size parameter's names: `page_size`, and the legacy `ps` and `size` (the token list sends `size`). */
const sizeParameters = ['page_size', 'ps', 'size'] as const;

export interface PageRequest {
  /** As the caller counts it (from 0 or from 1). */
  page: number;
  pageSize: number;
  offset: number;
}

function requestedPage(query: unknown, first: number): number {
  const text = queryText(query, 'p').trim();
  if (text === '') return first;
  const parsed = wholeNumberText.safeParse(text);
  if (!parsed.success || parsed.data > pageLimits.maximumPage) throw fieldRefusal('p', inputMessages.invalidPage, { max: pageLimits.maximumPage });
  // A negative page is the first one, as new-api reads it.
  return Math.max(first, parsed.data);
}

function requestedSize(query: unknown, defaultSize: number): number {
  const name = sizeParameters.find((candidate) => queryText(query, candidate).trim() !== '');
  if (name === undefined) return defaultSize;
  const parsed = wholeNumberText.safeParse(queryText(query, name).trim());
  if (!parsed.success) throw fieldRefusal(name, inputMessages.invalidPageSize);
  if (parsed.data <= 0) return defaultSize;
  return Math.min(parsed.data, pageLimits.maximumSize);
}

/**
 * The one page parser of every list route: `p` and the page size from the query, counted the way the
 * route declared. A page that is not a whole number up to `maximumPage` is a 400 naming it.
 */
export function pageFrom(request: FastifyRequest, options: { defaultSize?: number; pagedLists?: boolean } = {}): PageRequest {
  const matched = matchedRoute(request);
  const paging = matched.paging;
  const route = `${request.method} ${matched.url ?? request.url}`;
  if (paging === undefined) throw new Error(`${route} reads a page but declares no paging`);
  if (paging === 'by-dialect' && options.pagedLists === undefined) throw new Error(`${route} pages by dialect but was not told which`);
  const first = paging === 'from-zero' || (paging === 'by-dialect' && options.pagedLists === false) ? 0 : 1;
  const page = requestedPage(request.query, first);
  const pageSize = requestedSize(request.query, options.defaultSize ?? pageLimits.defaultSize);
  return { page, pageSize, offset: (page - first) * pageSize };
}

export function pageOf<T>(items: T[], total: number, page: number, pageSize: number): Page<T> {
  return { items, total, page, page_size: pageSize };
}
