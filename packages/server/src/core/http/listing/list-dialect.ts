import type { FastifyRequest } from 'fastify';
import type { Page } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { pageFrom, pageOf, type PageRequest } from './page-query.ts';

/**
 * new-api changed its lists in 2025: the classic lists (users, tokens, channels, codes, drawings,
 * tasks and their searches) page from 0 and answer a bare array; the later ones page from 1 and
 * answer `{items, total, page, page_size}`. Tools follow one or the other, so the administrator
 * picks with `PagedListsEnabled` (off: the classic dialect of the spec). Routes declare
 * `paging: 'by-dialect'` and ask this one object, read per request so a change applies at once.
 */
export class ListDialect {
  private readonly options: OptionStore;

  constructor(options: OptionStore) {
    this.options = options;
  }

  get paged(): boolean {
    return this.options.getBoolean('PagedListsEnabled');
  }

  /** The page asked for, counted from 0 (classic) or 1 (paged). */
  page(request: FastifyRequest, options: { defaultSize?: number } = {}): PageRequest {
    return pageFrom(request, { ...options, pagedLists: this.paged });
  }

  /**
   * One page of a list the database pages: the rows alone (classic), or with the total, which is
   * only counted when the paged dialect needs it. `extra` fields join the page (channels' `type_counts`).
   */
  async answer<T, Extra extends object = object>(
    page: PageRequest,
    items: T[],
    total: () => Promise<number>,
    extra?: () => Promise<Extra>,
  ): Promise<T[] | (Page<T> & Extra)> {
    if (!this.paged) return items;
    return { ...pageOf(items, await total(), page.page, page.pageSize), ...((await extra?.()) ?? ({} as Extra)) };
  }

  /** A page the service counted anyway (drawings, tasks): its rows alone in the classic dialect. */
  shape<T>(page: Page<T>): T[] | Page<T> {
    return this.paged ? page : page.items;
  }

  /**
   * A search the server answers whole (every match, as the classic console reads it): in the paged
   * dialect the requested page of the matches, with their number. The page is read (and a bad one
   * refused) in both dialects, so a search route refuses the same queries whichever is on.
   */
  whole<T, Extra extends object = object>(request: FastifyRequest, all: T[], extra?: (all: T[]) => Extra): T[] | (Page<T> & Extra) {
    const page = this.page(request);
    if (!this.paged) return all;
    return { ...pageOf(all.slice(page.offset, page.offset + page.pageSize), all.length, page.page, page.pageSize), ...(extra?.(all) ?? ({} as Extra)) };
  }
}
