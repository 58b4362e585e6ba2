import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

interface Answer {
  success: boolean;
  message: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  data?: any;
}

describe.each(testDatabases())('model catalogue on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  const call = async (options: InjectOptions & { as?: TestUser }): Promise<{ status: number; body: Answer }> => {
    const response = await testApp.app.inject({ ...options, headers: { ...(options.as ?? root).headers, ...(options.headers ?? {}) } });
    return { status: response.statusCode, body: response.json() as Answer };
  };
  const get = (url: string, as?: TestUser) => call({ method: 'GET', url, as });
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => call({ method: 'POST', url, payload: payload as object, headers });
  const put = (url: string, payload: unknown, headers: Record<string, string> = {}) => call({ method: 'PUT', url, payload: payload as object, headers });
  const addChannel = (fields: Record<string, unknown>) => post('/api/channel/', { type: 1, name: 'c', key: 'k', group: 'default', ...fields });
  const countRows = async (table: 'models' | 'vendors') => (await testApp.context.database.db.selectFrom(table).selectAll().execute()).length;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => testApp.close());

  describe('vendors', () => {
    it('creates, lists, searches, updates and deletes vendors with new-api routes and shapes', async () => {
      const created = await post('/api/vendors/', { name: 'Acme AI', description: 'rockets', icon: 'Acme.Color' });
      expect(created.body).toMatchObject({ success: true, data: { name: 'Acme AI', description: 'rockets', icon: 'Acme.Color', status: 1, model_count: 0 } });
      const id = created.body.data.id as number;
      await post('/api/vendors', { name: 'Bolt Labs' });

      const list = await get('/api/vendors/?p=1&page_size=1');
      expect(list.body.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
      expect(list.body.data.items.map((vendor: { name: string }) => vendor.name)).toEqual(['Bolt Labs']);
      const search = await get('/api/vendors/search?keyword=rock');
      expect(search.body.data.items.map((vendor: { name: string }) => vendor.name)).toEqual(['Acme AI']);

      const updated = await put('/api/vendors/', { id, description: 'rockets and more' });
      expect(updated.body.data).toMatchObject({ id, name: 'Acme AI', description: 'rockets and more', icon: 'Acme.Color' });
      expect((await get(`/api/vendors/${id}`)).body.data.description).toBe('rockets and more');

      const model = await post('/api/models/', { model_name: 'acme-1', vendor_id: id });
      expect((await get(`/api/vendors/${id}`)).body.data.model_count).toBe(1);
      expect((await call({ method: 'DELETE', url: `/api/vendors/${id}` })).body.success).toBe(true);
      expect((await get(`/api/vendors/${id}`)).body).toMatchObject({ success: false, message: '供应商不存在' });
      // Its models are left without a vendor rather than pointing at one nobody can see.
      expect((await get(`/api/models/${model.body.data.id}`)).body.data.vendor_id).toBe(0);
      await call({ method: 'DELETE', url: `/api/models/${model.body.data.id}` });
    });

    it('refuses empty and duplicate names and unknown ids, changing nothing', async () => {
      const before = await countRows('vendors');
      expect((await post('/api/vendors/', { name: '  ' })).body).toMatchObject({ success: false, message: '供应商名称不能为空' });
      expect((await post('/api/vendors/', { name: 'Bolt Labs' })).body).toMatchObject({ success: false, message: '供应商名称已存在' });
      expect((await post('/api/vendors/', { name: 'Bolt Labs' }, { 'accept-language': 'en' })).body.message).toBe('A vendor with this name already exists');
      const bolt = (await get('/api/vendors/search?keyword=Bolt')).body.data.items[0];
      const other = (await post('/api/vendors/', { name: 'Other' })).body.data;
      expect((await put('/api/vendors/', { id: other.id, name: 'Bolt Labs' })).body.message).toBe('供应商名称已存在');
      expect((await put('/api/vendors/', { id: 999_999, name: 'Ghost' })).body.message).toBe('供应商不存在');
      expect((await call({ method: 'DELETE', url: '/api/vendors/999999' })).body.message).toBe('供应商不存在');
      const badId = await get('/api/vendors/abc');
      expect(badId.status).toBe(400);
      const badName = await post('/api/vendors/', { name: 'bad\u0001name' });
      expect(badName.status).toBe(400);
      expect(await countRows('vendors')).toBe(before + 1);
      expect((await get(`/api/vendors/${bolt.id}`)).body.data.name).toBe('Bolt Labs');
      await call({ method: 'DELETE', url: `/api/vendors/${other.id}` });
      // A deleted vendor's name is free again.
      expect((await post('/api/vendors/', { name: 'Other' })).body.success).toBe(true);
    });
  });

  describe('models', () => {
    it('creates, reads, updates in part, toggles and deletes a model', async () => {
      const vendor = (await post('/api/vendors/', { name: 'Model Maker' })).body.data;
      const created = await post('/api/models/', {
        model_name: 'maker-large',
        vendor_id: vendor.id,
        tags: 'chat, reasoning,chat',
        description: 'big',
        endpoints: '{"openai":"/v1/chat/completions"}',
      });
      expect(created.body.data).toMatchObject({
        model_name: 'maker-large',
        vendor_id: vendor.id,
        tags: 'chat,reasoning',
        description: 'big',
        status: 1,
        sync_official: 1,
        name_rule: 0,
        bound_channels: [],
        enable_groups: [],
      });
      const id = created.body.data.id as number;

      // Only the fields sent change.
      const renamed = await put('/api/models/', { id, description: 'bigger' });
      expect(renamed.body.data).toMatchObject({ description: 'bigger', tags: 'chat,reasoning', vendor_id: vendor.id });
      const disabled = await put('/api/models/?status_only=true', { id, status: 0, description: 'ignored' });
      expect(disabled.body.data).toMatchObject({ status: 0, description: 'bigger' });

      const page = (await get('/api/models/?p=1&page_size=10')).body.data;
      expect(page).toMatchObject({ page: 1, page_size: 10 });
      expect(page.items.map((model: { model_name: string }) => model.model_name)).toContain('maker-large');
      expect(page.vendor_counts[String(vendor.id)]).toBe(1);
      for (const query of ['keyword=bigger', `vendor=${vendor.id}`, 'vendor=Maker', 'keyword=reason&vendor=Maker']) {
        const found = (await get(`/api/models/search?${query}`)).body.data.items.map((model: { model_name: string }) => model.model_name);
        expect(found, query).toEqual(['maker-large']);
      }
      expect((await get('/api/models/search?keyword=nothing-like-it')).body.data).toMatchObject({ items: [], total: 0 });

      expect((await call({ method: 'DELETE', url: `/api/models/${id}` })).body.success).toBe(true);
      expect((await get(`/api/models/${id}`)).body).toMatchObject({ success: false, message: '模型不存在' });
      // The name is free again after a delete.
      const again = await post('/api/models/', { model_name: 'maker-large' });
      expect(again.body.success).toBe(true);
      await call({ method: 'DELETE', url: `/api/models/${again.body.data.id}` });
    });

    it('refuses bad input, duplicates, unknown vendors and unknown ids, changing nothing', async () => {
      const existing = (await post('/api/models/', { model_name: 'taken-model' })).body.data;
      const before = await countRows('models');
      expect((await post('/api/models/', { model_name: '' })).body).toMatchObject({ success: false, message: '模型名称不能为空' });
      expect((await post('/api/models/', { model_name: 'taken-model' })).body.message).toBe('模型名称已存在');
      expect((await post('/api/models/', { model_name: 'taken-model' }, { 'accept-language': 'en' })).body.message).toBe(
        'A model with this name already exists',
      );
      expect((await post('/api/models/', { model_name: 'orphan', vendor_id: 999_999 })).body.message).toBe('供应商不存在');
      const badEndpoints = await post('/api/models/', { model_name: 'bad-endpoints', endpoints: '["openai"]' });
      expect(badEndpoints.status).toBe(400);
      expect(badEndpoints.body.message).toContain('endpoints');
      expect((await post('/api/models/', { model_name: 'bad-rule', name_rule: 7 })).status).toBe(400);
      expect((await post('/api/models/', { model_name: 'bad-status', status: 'on' })).status).toBe(400);
      expect((await post('/api/models/', { model_name: 'x'.repeat(129) })).status).toBe(400);
      expect((await put('/api/models/', { id: 999_999, description: 'x' })).body.message).toBe('模型不存在');
      expect((await put('/api/models/', { description: 'no id' })).status).toBe(400);
      expect((await put('/api/models/', { id: existing.id, vendor_id: 999_999 })).body.message).toBe('供应商不存在');
      expect((await call({ method: 'DELETE', url: '/api/models/999999' })).body.message).toBe('模型不存在');
      expect((await get('/api/models/?p=x')).status).toBe(400);
      expect(await countRows('models')).toBe(before);
      expect((await get(`/api/models/${existing.id}`)).body.data).toMatchObject({ model_name: 'taken-model', vendor_id: 0 });
      await call({ method: 'DELETE', url: `/api/models/${existing.id}` });
    });

    it('is for administrators; GET /api/models without the slash stays the users’ default-model list', async () => {
      const user = await createTestUser(testApp);
      const admin = await createTestUser(testApp, { role: 10 });
      for (const url of ['/api/models/', '/api/models/search', '/api/models/missing', '/api/vendors/', '/api/models/1', '/api/vendors/1']) {
        const refused = await get(url, user);
        expect(refused.status, url).toBe(403);
        expect(refused.body.success, url).toBe(false);
      }
      expect((await call({ method: 'POST', url: '/api/models/sync_upstream', payload: {}, as: user })).status).toBe(403);
      expect((await get('/api/models/', admin)).body.success).toBe(true);
      const defaults = await get('/api/models', user);
      expect(defaults.body.success).toBe(true);
      expect(Array.isArray(defaults.body.data['1'])).toBe(true);
    });
  });

  describe('sync from the channels', () => {
    let edited: { id: number };

    beforeAll(async () => {
      await testApp.context.options.set(
        'ModelRatio',
        JSON.stringify({
          'gpt-4o': 1.25,
          'claude-3-5-sonnet-20241022': 1.5,
          'deepseek-chat': 0.5,
          'Qwen/Qwen2.5-72B-Instruct': 1,
          'house-model': 2,
          'claude-3-5-haiku-20241022': 1,
        }),
      );
      await addChannel({ models: 'gpt-4o,deepseek-chat,Qwen/Qwen2.5-72B-Instruct,house-model', name: 'mixed' });
      await addChannel({ type: 14, models: 'claude-3-5-sonnet-20241022,claude-3-5-haiku-20241022', name: 'claude' });
      // An imported new-api database names the vendor in Chinese: the sync reuses it.
      await post('/api/vendors/', { name: '阿里巴巴', icon: 'Qwen.Color' });
      // The administrator described gpt-4o already and took it out of syncs.
      edited = (await post('/api/models/', { model_name: 'gpt-4o', tags: 'mine', description: 'by hand', sync_official: 0 })).body.data;
      // A rule describes every claude-3-5-haiku model.
      await post('/api/models/', { model_name: 'claude-3-5-haiku', name_rule: 1, tags: 'fast' });
    });

    it('lists the served models no row describes', async () => {
      expect((await get('/api/models/missing')).body.data).toEqual(['Qwen/Qwen2.5-72B-Instruct', 'claude-3-5-sonnet-20241022', 'deepseek-chat', 'house-model']);
      const preview = (await get('/api/models/sync_upstream/preview')).body.data;
      expect(preview.missing).toEqual(['Qwen/Qwen2.5-72B-Instruct', 'claude-3-5-sonnet-20241022', 'deepseek-chat', 'house-model']);
    });

    it('creates the missing models with inferred vendors and leaves existing rows alone', async () => {
      const result = (await post('/api/models/sync_upstream', {})).body;
      expect(result.success).toBe(true);
      expect(result.data).toMatchObject({ created_models: 4, created_vendors: 2, updated_models: 0, skipped_models: [] });
      expect([...result.data.created_list].sort()).toEqual(['Qwen/Qwen2.5-72B-Instruct', 'claude-3-5-sonnet-20241022', 'deepseek-chat', 'house-model']);

      const vendors = (await get('/api/vendors/?page_size=100')).body.data.items as Array<{ id: number; name: string; icon: string }>;
      const vendorOf = async (name: string) => {
        const model = (await get(`/api/models/search?keyword=${encodeURIComponent(name)}`)).body.data.items.find(
          (item: { model_name: string }) => item.model_name === name,
        );
        return vendors.find((vendor) => vendor.id === model.vendor_id)?.name ?? '';
      };
      expect(await vendorOf('claude-3-5-sonnet-20241022')).toBe('Anthropic');
      expect(await vendorOf('deepseek-chat')).toBe('DeepSeek');
      expect(await vendorOf('Qwen/Qwen2.5-72B-Instruct')).toBe('阿里巴巴');
      expect(await vendorOf('house-model')).toBe('');
      expect(vendors.find((vendor) => vendor.name === 'Anthropic')?.icon).toBe('Claude.Color');

      expect((await get(`/api/models/${edited.id}`)).body.data).toMatchObject({ tags: 'mine', description: 'by hand', vendor_id: 0, sync_official: 0 });
      const synced = (await get('/api/models/search?keyword=claude-3-5-sonnet')).body.data.items[0];
      expect(synced.bound_channels).toEqual([{ name: 'claude', type: 14 }]);
      expect(synced.enable_groups).toEqual(['default']);
      const rule = (await get('/api/models/search?keyword=claude-3-5-haiku')).body.data.items.find((item: { name_rule: number }) => item.name_rule === 1);
      expect(rule).toMatchObject({ matched_models: ['claude-3-5-haiku-20241022'], matched_count: 1 });

      // A second sync finds nothing to do.
      expect((await post('/api/models/sync_upstream', {})).body.data).toMatchObject({ created_models: 0, created_vendors: 0, updated_models: 0 });
      expect((await get('/api/models/missing')).body.data).toEqual([]);
    });

    it('never overwrites an edited model, even when asked to; re-infers the vendor of one that allows it', async () => {
      const deepseek = (await get('/api/models/search?keyword=deepseek-chat')).body.data.items[0];
      // The administrator edits a synced model: a sync leaves the edit alone.
      await put('/api/models/', { id: deepseek.id, vendor_id: 0, tags: 'cheap' });
      await post('/api/models/sync_upstream', {});
      expect((await get(`/api/models/${deepseek.id}`)).body.data).toMatchObject({ vendor_id: 0, tags: 'cheap' });

      const preview = (await get('/api/models/sync_upstream/preview')).body.data;
      expect(preview.conflicts).toEqual([{ model_name: 'deepseek-chat', fields: [{ field: 'vendor', local: '', upstream: 'DeepSeek' }] }]);
      const answer = await post('/api/models/sync_upstream', {
        overwrite: [
          { model_name: 'gpt-4o', fields: ['vendor'] },
          { model_name: 'deepseek-chat', fields: ['vendor'] },
        ],
      });
      expect(answer.body.data).toMatchObject({ updated_models: 1, updated_list: ['deepseek-chat'], created_vendors: 0 });
      expect((await get(`/api/models/${edited.id}`)).body.data.vendor_id).toBe(0);
      const deepseekVendor = (await get('/api/vendors/search?keyword=DeepSeek')).body.data.items[0];
      expect((await get(`/api/models/${deepseek.id}`)).body.data).toMatchObject({ vendor_id: deepseekVendor.id, tags: 'cheap' });
      expect((await post('/api/models/sync_upstream', { overwrite: 'all' })).status).toBe(400);
    });

    it('gives the price list vendor, icon, tags, description and endpoints, and hides disabled models', async () => {
      const anthropic = (await get('/api/vendors/search?keyword=Anthropic')).body.data.items[0];
      const sonnet = (await get('/api/models/search?keyword=claude-3-5-sonnet')).body.data.items[0];
      await put('/api/models/', { id: sonnet.id, tags: 'coding,vision', description: 'Sonnet', icon: 'Claude.Color' });
      const house = (await get('/api/models/search?keyword=house-model')).body.data.items[0];
      await put('/api/models/', {
        id: house.id,
        endpoints: JSON.stringify({ openai: '/v1/chat/completions', embeddings: { path: '/v1/house/embed', method: 'post' } }),
      });
      const deepseek = (await get('/api/models/search?keyword=deepseek-chat')).body.data.items[0];
      await put('/api/models/?status_only=true', { id: deepseek.id, status: 0 });

      const response = await testApp.app.inject({ method: 'GET', url: '/api/pricing' });
      const body = response.json();
      const entry = (name: string) => body.data.find((item: { model_name: string }) => item.model_name === name);
      expect(entry('claude-3-5-sonnet-20241022')).toMatchObject({
        vendor_id: anthropic.id,
        tags: 'coding,vision',
        description: 'Sonnet',
        icon: 'Claude.Color',
        supported_endpoint_types: ['anthropic', 'openai'],
      });
      // Described by the prefix rule, which names no vendor: the row's choice stands, as in new-api.
      expect(entry('claude-3-5-haiku-20241022')).toMatchObject({ tags: 'fast', supported_endpoint_types: ['anthropic', 'openai'] });
      expect(entry('claude-3-5-haiku-20241022').vendor_id).toBeUndefined();
      expect(entry('gpt-4o')).toMatchObject({ tags: 'mine', description: 'by hand', supported_endpoint_types: ['openai'] });
      expect(entry('gpt-4o').vendor_id).toBeUndefined();
      expect(entry('house-model').supported_endpoint_types).toEqual(['openai', 'embeddings']);
      expect(entry('deepseek-chat')).toBeUndefined();
      expect(body.vendors).toEqual(expect.arrayContaining([{ id: anthropic.id, name: 'Anthropic', icon: 'Claude.Color' }]));
      expect(body.supported_endpoint).toMatchObject({
        anthropic: { path: '/v1/messages', method: 'POST' },
        openai: { path: '/v1/chat/completions', method: 'POST' },
        embeddings: { path: '/v1/house/embed', method: 'POST' },
      });
    });
  });
});
