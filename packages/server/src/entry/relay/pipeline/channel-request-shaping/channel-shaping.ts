import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { defaultAllowances, fieldAllowances, type FieldAllowances } from './disabled-fields.ts';
import { readHeaderOverride, type HeaderOverride } from './header-override.ts';
import { readParamOverride, type ParamOverride } from './param-override.ts';
import type { ChannelSystemPrompt } from './system-prompt.ts';

/**
 * How a channel reshapes the requests it is sent (new-api's channel settings), read once per
 * channel load so a request pays only for what its channel sets.
 */
export interface ChannelShaping {
  readonly paramOverride?: ParamOverride | undefined;
  readonly headerOverride?: HeaderOverride | undefined;
  readonly systemPrompt?: ChannelSystemPrompt | undefined;
  readonly allowed: FieldAllowances;
  /** `setting.pass_through_body_enabled`: the caller's body goes as it came, none of the above applied to it. */
  readonly passThroughBody: boolean;
}

/** A channel that sets nothing: the common case, shared. */
export const noShaping: ChannelShaping = { allowed: defaultAllowances, passThroughBody: false };

/** The JSON columns the shaping is read from. */
export interface ShapingColumns {
  readonly setting: string | null;
  readonly settings: string | null;
  readonly param_override: string | null;
  readonly header_override: string | null;
}

export type ShapingField = 'setting' | 'settings' | 'param_override' | 'header_override';

/** A column's JSON object; undefined when empty, 'invalid' when it is not a JSON object. */
function objectOf(text: string | null): Record<string, unknown> | undefined | 'invalid' {
  if (!text?.trim()) return undefined;
  const parsed = safeParseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return 'invalid';
  return parsed.value as Record<string, unknown>;
}

const flag = (object: Record<string, unknown> | undefined, name: string): boolean => object?.[name] === true;

/**
 * The channel's shaping, and the columns that could not be read (ignored: a moved-over database may
 * hold what the console would refuse; the caller warns once per load, naming the column, never its text).
 */
export function readChannelShaping(columns: ShapingColumns): { shaping: ChannelShaping; invalid: ShapingField[] } {
  const invalid: ShapingField[] = [];
  const read = <T>(field: ShapingField, value: T | 'invalid'): T | undefined => {
    if (value !== 'invalid') return value;
    invalid.push(field);
    return undefined;
  };
  const setting = read('setting', objectOf(columns.setting));
  const settings = read('settings', objectOf(columns.settings));
  const paramObject = read('param_override', objectOf(columns.param_override));
  const headerObject = read('header_override', objectOf(columns.header_override));
  const paramOverride = paramObject ? read('param_override', readParamOverride(paramObject)) : undefined;
  const headerOverride = headerObject ? read('header_override', readHeaderOverride(headerObject)) : undefined;
  const promptText = typeof setting?.system_prompt === 'string' ? setting.system_prompt : '';
  const allowed: FieldAllowances = settings
    ? fieldAllowances({
        serviceTier: flag(settings, 'allow_service_tier'),
        inferenceGeo: flag(settings, 'allow_inference_geo'),
        speed: flag(settings, 'allow_speed'),
        safetyIdentifier: flag(settings, 'allow_safety_identifier'),
        includeObfuscation: flag(settings, 'allow_include_obfuscation'),
        disableStore: flag(settings, 'disable_store'),
      })
    : defaultAllowances;
  const passThroughBody = flag(setting, 'pass_through_body_enabled');
  if (!paramOverride && !headerOverride && !promptText && !passThroughBody && allowed === defaultAllowances) return { shaping: noShaping, invalid };
  return {
    shaping: {
      ...(paramOverride ? { paramOverride } : {}),
      ...(headerOverride ? { headerOverride } : {}),
      ...(promptText ? { systemPrompt: { text: promptText, override: flag(setting, 'system_prompt_override') } } : {}),
      allowed,
      passThroughBody,
    },
    invalid,
  };
}
