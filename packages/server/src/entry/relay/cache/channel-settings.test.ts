import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/http/app-error.ts';
import { channelColumnsFrom } from '../../api/channel/channel-rules.ts';
import { firstByteTimeoutSetting } from './channel-settings.ts';

describe("a channel's first_byte_timeout setting", () => {
  it('reads whole seconds from 1 to 3600; 0, absent or a setting that is not JSON follow the global limit', () => {
    expect(firstByteTimeoutSetting('{"first_byte_timeout": 30}')).toBe(30);
    expect(firstByteTimeoutSetting('{"first_byte_timeout": 3600, "force_format": true}')).toBe(3600);
    expect(firstByteTimeoutSetting('{"first_byte_timeout": 0}')).toBeUndefined();
    expect(firstByteTimeoutSetting('{"force_format": true}')).toBeUndefined();
    expect(firstByteTimeoutSetting('')).toBeUndefined();
    expect(firstByteTimeoutSetting(null)).toBeUndefined();
    expect(firstByteTimeoutSetting('not json')).toBeUndefined();
  });

  it.each(['-1', '1.5', '"30"', '3601', 'true'])('refuses %s when a channel is saved, with a message naming the field', (value) => {
    const save = () => channelColumnsFrom({ setting: `{"first_byte_timeout": ${value}}` }, { clampWeight: false });
    expect(firstByteTimeoutSetting(`{"first_byte_timeout": ${value}}`)).toBe('invalid');
    expect(save).toThrow(AppError);
    expect(save).toThrow(/first_byte_timeout/);
  });
});
