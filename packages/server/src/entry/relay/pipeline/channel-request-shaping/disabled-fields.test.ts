import { describe, expect, it } from 'vitest';
import { defaultAllowances, fieldAllowances, hasDisabledField, removeDisabledFields } from './disabled-fields.ts';

const everything = () => ({
  model: 'm',
  service_tier: 'priority',
  inference_geo: 'us',
  speed: 'fast',
  safety_identifier: 'user-1',
  store: true,
  stream_options: { include_usage: true, include_obfuscation: false },
});

describe('fields removed before the upstream', () => {
  it('by default removes service_tier, inference_geo, speed, safety_identifier and include_obfuscation, keeping store', () => {
    const body: Record<string, unknown> = everything();
    expect(hasDisabledField(body, defaultAllowances)).toBe(true);
    expect(removeDisabledFields(body, defaultAllowances)).toBe(true);
    expect(body).toEqual({ model: 'm', store: true, stream_options: { include_usage: true } });
  });

  it('keeps each field its channel allows, and removes store when disable_store is on', () => {
    const allowed = fieldAllowances({
      serviceTier: true,
      inferenceGeo: true,
      speed: true,
      safetyIdentifier: true,
      includeObfuscation: true,
      disableStore: true,
    });
    const body: Record<string, unknown> = everything();
    removeDisabledFields(body, allowed);
    const { store: _store, ...rest } = everything();
    expect(body).toEqual(rest);
  });

  it('drops stream_options when include_obfuscation was all it had', () => {
    const body: Record<string, unknown> = { stream_options: { include_obfuscation: true } };
    removeDisabledFields(body, defaultAllowances);
    expect(body).toEqual({});
  });

  it('finds nothing to do on a body without those fields', () => {
    const body = { model: 'm', messages: [], stream_options: { include_usage: true } };
    expect(hasDisabledField(body, defaultAllowances)).toBe(false);
    expect(hasDisabledField(undefined, defaultAllowances)).toBe(false);
    expect(removeDisabledFields({ ...body }, defaultAllowances)).toBe(false);
  });
});
