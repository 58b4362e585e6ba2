import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser globals the client reads, as a plain in-memory stand-in (tests run in Node). */
const browser = vi.hoisted(() => {
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  globalThis.localStorage = localStorage as unknown as Storage;
  Object.assign(globalThis, { window: { location: { pathname: '/token', assign: () => undefined }, dispatchEvent: () => true } });
  return { store };
});

const { getCountedPage, getListPage, getWholeList } = await import('./list-dialect.ts');

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);

const answer = (data: unknown) =>
  new Response(JSON.stringify({ success: true, message: '', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
const sentQuery = (call: number) => new URL(String(fetchMock.mock.calls[call]?.[0]), 'http://console').searchParams;
const serverSpeaks = (dialect: 'classic' | 'paged') => browser.store.set('status', JSON.stringify({ paged_lists: dialect === 'paged' }));

beforeEach(() => {
  fetchMock.mockReset();
  browser.store.clear();
});

describe('list dialects', () => {
  it('asks for a page from 0 of a classic server and from 1 of a paged one, reading either shape', async () => {
    serverSpeaks('classic');
    fetchMock.mockResolvedValueOnce(answer([{ id: 1 }]));
    await expect(getListPage('/api/token/', {}, 2, 10, undefined, 'size')).resolves.toEqual([{ id: 1 }]);
    expect(sentQuery(0).get('p')).toBe('2');
    expect(sentQuery(0).get('size')).toBe('10');

    serverSpeaks('paged');
    fetchMock.mockResolvedValueOnce(answer({ items: [{ id: 2 }], total: 21, page: 3, page_size: 10 }));
    await expect(getListPage('/api/channel/', { tag_mode: true }, 2, 10)).resolves.toEqual([{ id: 2 }]);
    expect(sentQuery(1).get('p')).toBe('3');
    expect(sentQuery(1).get('tag_mode')).toBe('true');

    // A status that has not caught up yet: the shape still decides how the answer is read.
    fetchMock.mockResolvedValueOnce(answer([{ id: 3 }]));
    await expect(getListPage('/api/user/', {}, 0, 10)).resolves.toEqual([{ id: 3 }]);
    fetchMock.mockResolvedValueOnce(answer(null));
    await expect(getListPage('/api/user/', {}, 0, 10)).resolves.toEqual([]);
  });

  it('reads every page of a paged search, and a classic search in one call', async () => {
    serverSpeaks('paged');
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: from + index }));
    fetchMock.mockResolvedValueOnce(answer({ items: rows(0, 100), total: 130, page: 1, page_size: 100 }));
    fetchMock.mockResolvedValueOnce(answer({ items: rows(100, 30), total: 130, page: 2, page_size: 100 }));
    expect(await getWholeList('/api/token/search', { keyword: 'k' })).toHaveLength(130);
    expect([sentQuery(0).get('p'), sentQuery(1).get('p'), sentQuery(1).get('keyword')]).toEqual(['1', '2', 'k']);

    serverSpeaks('classic');
    fetchMock.mockResolvedValueOnce(answer(rows(0, 3)));
    expect(await getWholeList('/api/redemption/search', { keyword: 'k' })).toHaveLength(3);
    expect(sentQuery(2).has('p')).toBe(false);
  });

  it('counts the pages of a drawing or task list: the server total when paged, one more after a full classic page', async () => {
    serverSpeaks('paged');
    fetchMock.mockResolvedValueOnce(answer({ items: [{ id: 1 }], total: 41, page: 2, page_size: 20 }));
    await expect(getCountedPage('/api/mj/', {}, 2, 20)).resolves.toEqual({ items: [{ id: 1 }], total: 41, page: 2, page_size: 20 });
    expect(sentQuery(0).get('p')).toBe('2');

    serverSpeaks('classic');
    fetchMock.mockResolvedValueOnce(answer([{ id: 1 }, { id: 2 }]));
    await expect(getCountedPage('/api/task/', {}, 3, 2)).resolves.toEqual({ items: [{ id: 1 }, { id: 2 }], total: 7, page: 3, page_size: 2 });
    expect(sentQuery(1).get('p')).toBe('2');
    fetchMock.mockResolvedValueOnce(answer([{ id: 1 }]));
    await expect(getCountedPage('/api/task/', {}, 3, 2)).resolves.toMatchObject({ total: 5 });
  });
});
