import type { Page } from '@switchboard/contracts';
import { api, type Query } from './api-client.ts';
import { readCachedStatus } from './system-status.ts';

/**
 * The user, token, channel, code, drawing and task lists speak one of two dialects, as the server's
 * `PagedListsEnabled` says (status `paged_lists`): arrays paged from 0 (classic new-api) or
 * `{items, total, page, page_size}` paged from 1 (new-api since 2025). The page number sent follows
 * the status; the answer is read by its shape, so either is understood whatever the status said.
 */
type ListAnswer<Row> = Row[] | (Partial<Page<Row>> & Record<string, unknown>) | null;

/** The status is loaded (and cached) before any list screen shows. */
export function serverPagesFromOne(): boolean {
  return readCachedStatus()?.paged_lists === true;
}

function rowsOf<Row>(answer: ListAnswer<Row>): Row[] {
  if (Array.isArray(answer)) return answer;
  return Array.isArray(answer?.items) ? answer.items : [];
}

/** One page, counted from 0 as the tables do, of a list paged without totals in our console. */
export function getListPage<Row>(path: string, query: Query, page: number, size: number, signal?: AbortSignal, sizeParameter = 'page_size'): Promise<Row[]> {
  const p = serverPagesFromOne() ? page + 1 : page;
  // The page comes first in the address, as new-api's console sends it (logs and scripts read it so).
  return api.get<ListAnswer<Row>>(path, { p, [sizeParameter]: size, ...query }, signal).then(rowsOf);
}

/** A page size the server never lowers (it caps at 100), for reading a search whole. */
const wholeReadSize = 100;
/** Searches answer at most 1000 matches; the pages of one are read until then. */
const wholeReadPages = 10;

/**
 * Every match of a search the classic server answers whole. The later dialect pages searches too,
 * so its pages are read until the total is reached.
 */
export async function getWholeList<Row>(path: string, query: Query, signal?: AbortSignal): Promise<Row[]> {
  if (!serverPagesFromOne()) return rowsOf(await api.get<ListAnswer<Row>>(path, query, signal));
  const rows: Row[] = [];
  for (let p = 1; p <= wholeReadPages; p += 1) {
    const answer = await api.get<ListAnswer<Row>>(path, { ...query, p, page_size: wholeReadSize }, signal);
    const pageRows = rowsOf(answer);
    rows.push(...pageRows);
    const total = Array.isArray(answer) ? rows.length : Number(answer?.total ?? rows.length);
    if (pageRows.length < wholeReadSize || rows.length >= total) break;
  }
  return rows;
}

/**
 * One page (from 1) with its total, for the drawing and task lists. The classic dialect gives no
 * total: a full page then counts one more row, so the table offers the next page.
 */
export async function getCountedPage<Row>(path: string, query: Query, page: number, pageSize: number, signal?: AbortSignal): Promise<Page<Row>> {
  const fromOne = serverPagesFromOne();
  const answer = await api.get<ListAnswer<Row>>(path, { ...query, p: fromOne ? page : page - 1, page_size: pageSize }, signal);
  const items = rowsOf(answer);
  if (!Array.isArray(answer) && typeof answer?.total === 'number') return { items, total: answer.total, page, page_size: pageSize };
  return { items, total: (page - 1) * pageSize + items.length + (items.length === pageSize ? 1 : 0), page, page_size: pageSize };
}
