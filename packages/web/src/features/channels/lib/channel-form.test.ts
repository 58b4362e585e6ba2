import type { ChannelView } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import {
  emptyChannelForm,
  firstByteTimeoutOf,
  formToChannelInput,
  isJsonObjectOrEmpty,
  usageLimitsOf,
  withFirstByteTimeout,
  withSettingNumbers,
} from './channel-form.ts';
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

describe('the first-byte timeout field', () => {
  it('reads first_byte_timeout from the setting JSON', () => {
    expect(firstByteTimeoutOf('{"first_byte_timeout":30,"force_format":true}')).toBe(30);
    expect(firstByteTimeoutOf('{"force_format":true}')).toBeNull();
    expect(firstByteTimeoutOf('')).toBeNull();
    expect(firstByteTimeoutOf('not json')).toBeNull();
  });

  it('writes it into the setting JSON beside the other settings, and removes it when emptied', () => {
    expect(formToChannelInput({ ...emptyChannelForm, first_byte_timeout: 30 }).setting).toBe('{"first_byte_timeout":30}');
    expect(withFirstByteTimeout('{"force_format":true}', 45)).toBe('{"force_format":true,"first_byte_timeout":45}');
    expect(withFirstByteTimeout('{"force_format":true,"first_byte_timeout":45}', null)).toBe('{"force_format":true}');
    expect(withFirstByteTimeout('{"first_byte_timeout":45}', null)).toBe('');
    // Untouched when there is nothing to add or remove, and sent as typed when it is not JSON (the server refuses it).
    expect(withFirstByteTimeout(' {"force_format": true} ', null)).toBe('{"force_format": true}');
    expect(withFirstByteTimeout('{oops', 30)).toBe('{oops');
  });
});

describe('the RPM / TPM ceilings', () => {
  it('reads them from the setting JSON, none when absent, 0 or not JSON', () => {
    expect(usageLimitsOf('{"rpm_limit":600,"key_tpm_limit":9000,"tpm_limit":0}')).toEqual({
      rpm_limit: 600,
      tpm_limit: null,
      key_rpm_limit: null,
      key_tpm_limit: 9000,
    });
    expect(usageLimitsOf('not json')).toEqual({ rpm_limit: null, tpm_limit: null, key_rpm_limit: null, key_tpm_limit: null });
  });

  it('writes them beside the other settings and removes the emptied ones', () => {
    const form = { ...emptyChannelForm, setting: '{"force_format":true,"tpm_limit":5}', key_rpm_limit: 60, tpm_limit: null };
    expect(formToChannelInput(form).setting).toBe('{"force_format":true,"key_rpm_limit":60}');
    expect(withSettingNumbers('{"rpm_limit":10}', { rpm_limit: null })).toBe('');
  });
});
