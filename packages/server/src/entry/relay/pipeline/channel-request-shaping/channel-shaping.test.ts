import { describe, expect, it } from 'vitest';
import { noShaping, readChannelShaping, type ShapingColumns } from './channel-shaping.ts';
import { fieldAllowances } from './disabled-fields.ts';

const columns = (values: Partial<ShapingColumns>): ShapingColumns => ({ setting: '', settings: '', param_override: '', header_override: '', ...values });

describe('reading a channel shaping', () => {
  it('shares one empty shaping among channels that set nothing (new-api defaults included)', () => {
    expect(readChannelShaping(columns({})).shaping).toBe(noShaping);
    const defaults = columns({
      setting: '{"force_format":false,"pass_through_body_enabled":false,"system_prompt":""}',
      settings: '{"allow_service_tier":false,"disable_store":false}',
      param_override: '{}',
      header_override: '{}',
    });
    expect(readChannelShaping(defaults)).toEqual({ shaping: noShaping, invalid: [] });
  });

  it('reads every setting', () => {
    const { shaping, invalid } = readChannelShaping(
      columns({
        setting: '{"system_prompt":"Be brief.","system_prompt_override":true,"pass_through_body_enabled":true}',
        settings: '{"allow_service_tier":true,"disable_store":true,"allow_safety_identifier":true}',
        param_override: '{"temperature":0.3}',
        header_override: '{"X-Title":"sb"}',
      }),
    );
    expect(invalid).toEqual([]);
    expect(shaping).toEqual({
      paramOverride: { kind: 'classic', fields: { temperature: 0.3 } },
      headerOverride: { 'x-title': 'sb' },
      systemPrompt: { text: 'Be brief.', override: true },
      allowed: fieldAllowances({ serviceTier: true, inferenceGeo: false, speed: false, safetyIdentifier: true, includeObfuscation: false, disableStore: true }),
      passThroughBody: true,
    });
  });

  it('ignores a column it cannot read and names it (not its text), keeping the others', () => {
    const { shaping, invalid } = readChannelShaping(
      columns({ param_override: '{"temperature":', header_override: '{"x-key":"sk-secret\\r\\nx: y"}', setting: '{"system_prompt":"Hi"}' }),
    );
    expect(invalid).toEqual(['param_override', 'header_override']);
    expect(shaping.paramOverride).toBeUndefined();
    expect(shaping.headerOverride).toBeUndefined();
    expect(shaping.systemPrompt).toEqual({ text: 'Hi', override: false });
  });
});
