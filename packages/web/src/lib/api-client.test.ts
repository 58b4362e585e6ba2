import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser globals the client and i18n read, as a plain in-memory stand-in (tests run in Node). */
const browser = vi.hoisted(() => {
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  const location = { pathname: '/token', assign: (url: string) => void url };
  const window = { location, dispatchEvent: () => true };
  globalThis.localStorage = localStorage as unknown as Storage;
  Object.assign(globalThis, { window });
  return { store, location };
});

const { api, ApiError, requestWithExtras } = await import('./api-client.ts');
const { default: i18n } = await import('./i18n.ts');

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(async () => {
  fetchMock.mockReset();
  browser.store.clear();
  browser.location.pathname = '/token';
  await i18n.changeLanguage('en');
});

describe('api client', () => {
  it('sends the user id and no-store headers and unwraps the envelope', async () => {
    browser.store.set('user', JSON.stringify({ id: 7, username: 'ann', role: 1 }));
    fetchMock.mockResolvedValue(answer(200, { success: true, message: '', data: { name: 'x' } }));
    await expect(api.get('/api/user/self', { p: 0, empty: undefined })).resolves.toEqual({ name: 'x' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/user/self?p=0');
    expect(init?.headers).toMatchObject({ 'New-Api-User': '7', 'Cache-Control': 'no-store' });
  });

  it('turns success false into an error carrying the server message', async () => {
    fetchMock.mockResolvedValue(answer(200, { success: false, message: 'Username or password is incorrect' }));
    await expect(api.post('/api/user/login', {})).rejects.toThrow(new ApiError('Username or password is incorrect', 200));
  });

  it('carries the envelope code of a failure the console acts on', async () => {
    fetchMock.mockResolvedValue(answer(200, { success: false, message: 'Complete the human check, then log in again', code: 'turnstile_required' }));
    await expect(api.post('/api/user/login', {})).rejects.toMatchObject({
      status: 200,
      code: 'turnstile_required',
      message: 'Complete the human check, then log in again',
    });
    fetchMock.mockResolvedValue(answer(200, { success: false, message: 'Username or password is incorrect' }));
    await expect(api.post('/api/user/login', {})).rejects.toMatchObject({ code: '' });
  });

  it('forgets the user and sends them to /login?expired=true on 401', async () => {
    browser.store.set('user', JSON.stringify({ id: 7, username: 'ann', role: 1 }));
    const assign = vi.spyOn(browser.location, 'assign');
    fetchMock.mockResolvedValue(answer(401, { success: false, message: '' }));
    await expect(api.get('/api/user/self')).rejects.toMatchObject({ status: 401, message: 'Not logged in or login expired, please log in again' });
    expect(browser.store.has('user')).toBe(false);
    expect(assign).toHaveBeenCalledWith('/login?expired=true');
  });

  it.each([
    [429, 'Too many requests, try again later'],
    [500, 'Internal server error, contact the administrator'],
    [405, 'This site is for demo only, no server'],
    [404, 'Error: HTTP 404'],
  ])('says what HTTP %i means', async (status, text) => {
    fetchMock.mockResolvedValue(new Response('not json', { status }));
    await expect(api.get('/api/anything')).rejects.toMatchObject({ status, message: text });
  });

  it.each([
    [429, 'Too many requests', 'Too many requests, try again later'],
    [500, 'Server internal error', 'Internal server error, contact the administrator'],
    [405, 'Method not allowed', 'This site is for demo only, no server'],
  ])('keeps the fixed text for HTTP %i even when a JSON body has a message', async (status, serverMessage, text) => {
    fetchMock.mockResolvedValue(answer(status, { success: false, message: serverMessage }));
    await expect(api.get('/api/anything')).rejects.toMatchObject({ status, message: text });
  });

  it.each([
    [400, 'Invalid parameter'],
    [403, 'No permission'],
    [404, 'No such API route: /api/x'],
    [502, 'Upstream unavailable'],
  ])('shows the server message behind "Error:" for any other HTTP %i', async (status, serverMessage) => {
    fetchMock.mockResolvedValue(answer(status, { success: false, message: serverMessage }));
    await expect(api.get('/api/anything')).rejects.toMatchObject({ status, message: `Error: ${serverMessage}` });
  });

  it('uses the current language for the fixed texts', async () => {
    await i18n.changeLanguage('zh');
    fetchMock.mockResolvedValue(answer(429, { success: false, message: 'Too many requests' }));
    await expect(api.get('/api/anything')).rejects.toMatchObject({ message: '请求过于频繁，请稍后再试' });
    fetchMock.mockResolvedValue(answer(404, { success: false, message: '未找到' }));
    await expect(api.get('/api/anything')).rejects.toMatchObject({ message: '错误：未找到' });
  });

  it('returns the fields a classic call puts beside data, with the same failure rules', async () => {
    fetchMock.mockResolvedValue(answer(200, { success: true, message: '', data: { a: 1 }, time: 1.5 }));
    await expect(requestWithExtras<{ time: number }>('GET', '/api/channel/test/1')).resolves.toEqual({ success: true, message: '', data: { a: 1 }, time: 1.5 });
    fetchMock.mockResolvedValue(answer(429, { success: false, message: 'Too many requests' }));
    await expect(requestWithExtras('GET', '/api/channel/test/1')).rejects.toMatchObject({ status: 429, message: 'Too many requests, try again later' });
    fetchMock.mockResolvedValue(answer(200, { success: false, message: 'Channel does not exist' }));
    await expect(requestWithExtras('GET', '/api/channel/test/1')).rejects.toMatchObject({ status: 200, message: 'Channel does not exist' });
  });

  it('says the server cannot be reached when the request fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/api/status')).rejects.toMatchObject({ status: 0, message: 'Unable to connect to server' });
  });
});
