import type { ChannelView } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { emptyChannelForm, formToChannelInput, isJsonObjectOrEmpty } from './channel-form.ts';
import { buildRows } from './tag-rows.ts';

describe('formToChannelInput', () => {
  it('joins lists, drops the trailing slash and fills default API versions', () => {
    const azure = formToChannelInput({
      ...emptyChannelForm,
      type: 3,
      name: ' a ',
      models: ['m1', 'm2'],
      groups: ['default', 'vip'],
      base_url: 'https://x.example/',
      weight: -3,
    });
    expect(azure).toMatchObject({
      name: 'a',
      models: 'm1,m2',
      group: 'default,vip',
      base_url: 'https://x.example',
      other: '2023-06-01-preview',
      weight: 0,
      auto_ban: 1,
    });
    expect(formToChannelInput({ ...emptyChannelForm, type: 18 }).other).toBe('v2.1');
  });
});

describe('isJsonObjectOrEmpty', () => {
  it('accepts empty text and objects only', () => {
    expect(isJsonObjectOrEmpty('')).toBe(true);
    expect(isJsonObjectOrEmpty('{"a":"b"}')).toBe(true);
    expect(isJsonObjectOrEmpty('[1]')).toBe(false);
    expect(isJsonObjectOrEmpty('{a:b}')).toBe(false);
  });
});

describe('buildRows', () => {
  const channel = (id: number, tag: string, status = 1) =>
    ({ id, tag, status, group: 'default', models: `m${id}`, used_quota: 10, priority: 0, weight: 0 }) as ChannelView;

  it('groups tagged channels under one row per tag and keeps untagged ones', () => {
    const rows = buildRows([channel(1, 't'), channel(2, ''), channel(3, 't', 2)], true);
    expect(rows.map((row) => row.rowKey)).toEqual(['tag-t', 'channel-2']);
    const tag = rows[0];
    if (tag?.kind !== 'tag') throw new Error('expected a tag row');
    expect(tag).toMatchObject({ enabledCount: 1, used_quota: 20, models: 'm1,m3' });
    expect(tag.children).toHaveLength(2);
  });

  it('leaves the list flat outside tag mode', () => {
    expect(buildRows([channel(1, 't')], false).map((row) => row.kind)).toEqual(['channel']);
  });
});
