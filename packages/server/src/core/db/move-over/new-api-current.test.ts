import { expect, it } from 'vitest';
import { sessionHeaders } from '../../../testing/test-app.ts';
import { newApiCurrentModels } from './__fixtures__/new-api-current.ts';
import { moveOverSuite } from './testing/move-over-suite.ts';

moveOverSuite('new-api-current', newApiCurrentModels, {
  unknownSchema: ['next_release_feature', 'users.next_release_column'],
  more(get) {
    it('keeps its model catalogue: the console lists it and the price list shows it', async () => {
      const fixture = get();
      const headers = await sessionHeaders(fixture, 1);
      const models = (await fixture.app.inject({ method: 'GET', url: '/api/models/?p=1&page_size=10', headers })).json();
      expect(models.data.items.map((model: { model_name: string }) => model.model_name)).toEqual(['claude-3-5', 'gpt-4o-mini']);
      expect(models.data.vendor_counts).toEqual({ 0: 1, 1: 1 });
      const vendors = (await fixture.app.inject({ method: 'GET', url: '/api/vendors/', headers })).json();
      expect(vendors.data.items.map((vendor: { name: string; model_count: number }) => [vendor.name, vendor.model_count])).toEqual([
        ['智谱', 0],
        ['OpenAI', 1],
      ]);
      const pricing = (await fixture.app.inject({ method: 'GET', url: '/api/pricing' })).json();
      const entry = (name: string) => pricing.data.find((item: { model_name: string }) => item.model_name === name);
      expect(entry('gpt-4o-mini')).toMatchObject({ description: 'Small and fast', tags: 'chat,cheap', vendor_id: 1 });
      expect(entry('claude-3-5-haiku-20241022')).toMatchObject({ tags: 'claude', supported_endpoint_types: ['anthropic', 'openai'] });
      expect(pricing.vendors).toEqual([
        { id: 1, name: 'OpenAI', icon: 'OpenAI' },
        { id: 2, name: '智谱', icon: 'Zhipu.Color' },
      ]);
    });
  },
});
