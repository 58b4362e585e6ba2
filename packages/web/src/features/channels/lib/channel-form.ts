import { findChannelType, type ChannelView } from '@switchboard/contracts';
import type { ChannelInput } from '../api/channel-input.ts';

/** The editor's state: lists where the wire has comma strings, booleans where it has 0/1. */
export interface ChannelFormValues {
  type: number;
  name: string;
  groups: string[];
  models: string[];
  model_mapping: string;
  key: string;
  batch: boolean;
  base_url: string;
  other: string;
  openai_organization: string;
  setting: string;
  /** Seconds, from the setting JSON's `first_byte_timeout`; null follows the server's RELAY_FIRST_BYTE_TIMEOUT. */
  first_byte_timeout: number | null;
  /** The usage-aware routing ceilings of the setting JSON (`rpm_limit`, …); null means none. */
  rpm_limit: number | null;
  tpm_limit: number | null;
  key_rpm_limit: number | null;
  key_tpm_limit: number | null;
  test_model: string;
  auto_ban: boolean;
  status_code_mapping: string;
  tag: string;
  priority: number;
  weight: number;
}

export const azureDefaultApiVersion = '2023-06-01-preview';
export const iflytekDefaultVersion = 'v2.1';
export const geminiDefaultVersion = 'v1beta';
export const modelMappingExample = '{\n  "gpt-3.5-turbo": "gpt-3.5-turbo-0125"\n}';
export const vertexRegionExample = '{\n  "default": "us-central1",\n  "claude-3-5-sonnet-20240620": "europe-west1"\n}';

export const emptyChannelForm: ChannelFormValues = {
  type: 1,
  name: '',
  groups: ['default'],
  models: [],
  model_mapping: '',
  key: '',
  batch: false,
  base_url: '',
  other: '',
  openai_organization: '',
  setting: '',
  first_byte_timeout: null,
  rpm_limit: null,
  tpm_limit: null,
  key_rpm_limit: null,
  key_tpm_limit: null,
  test_model: '',
  auto_ban: true,
  status_code_mapping: '',
  tag: '',
  priority: 0,
  weight: 0,
};

export function splitList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function channelToForm(channel: ChannelView): ChannelFormValues {
  return {
    type: channel.type,
    name: channel.name,
    groups: splitList(channel.group),
    models: splitList(channel.models),
    model_mapping: channel.model_mapping ?? '',
    key: '',
    batch: false,
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    openai_organization: channel.openai_organization ?? '',
    setting: channel.setting ?? '',
    first_byte_timeout: firstByteTimeoutOf(channel.setting ?? ''),
    ...usageLimitsOf(channel.setting ?? ''),
    test_model: channel.test_model ?? '',
    auto_ban: channel.auto_ban !== 0,
    status_code_mapping: channel.status_code_mapping ?? '',
    tag: channel.tag ?? '',
    priority: channel.priority ?? 0,
    weight: channel.weight ?? 0,
  };
}

/** The setting JSON as an object; empty (or not an object) as none. */
function settingObject(text: string): Record<string, unknown> {
  if (!isJsonObjectOrEmpty(text) || text.trim() === '') return {};
  return JSON.parse(text) as Record<string, unknown>;
}

/** `first_byte_timeout` of a channel's setting JSON, when it is a positive number. */
export function firstByteTimeoutOf(setting: string): number | null {
  const value = settingObject(setting).first_byte_timeout;
  return typeof value === 'number' && value > 0 ? value : null;
}

/** The setting fields the usage-aware routing strategy reads (requests and tokens per minute, per channel and per key). */
export const usageLimitFields = ['rpm_limit', 'tpm_limit', 'key_rpm_limit', 'key_tpm_limit'] as const;
export type UsageLimitField = (typeof usageLimitFields)[number];

/** The channel's usage ceilings from its setting JSON; null for each one not set (or 0). */
export function usageLimitsOf(setting: string): Record<UsageLimitField, number | null> {
  const object = isJsonObjectOrEmpty(setting) ? settingObject(setting) : {};
  const read = (field: UsageLimitField) => {
    const value = object[field];
    return typeof value === 'number' && value > 0 ? value : null;
  };
  return { rpm_limit: read('rpm_limit'), tpm_limit: read('tpm_limit'), key_rpm_limit: read('key_rpm_limit'), key_tpm_limit: read('key_tpm_limit') };
}

/**
 * The setting JSON with whole-number fields of the form written into it (each removed when empty or
 * 0); a setting that is not a JSON object is sent as typed, for the server to refuse with its message.
 */
export function withSettingNumbers(setting: string, numbers: Readonly<Record<string, number | null | undefined>>): string {
  const text = setting.trim();
  if (!isJsonObjectOrEmpty(text)) return text;
  const object = settingObject(text);
  let changed = false;
  for (const [field, value] of Object.entries(numbers)) {
    if (value) {
      object[field] = Math.trunc(value);
      changed = true;
    } else if (field in object) {
      delete object[field];
      changed = true;
    }
  }
  if (!changed) return text;
  return Object.keys(object).length === 0 ? '' : JSON.stringify(object);
}

/** The setting JSON with the form's first-byte timeout written into it (removed when empty or 0). */
export function withFirstByteTimeout(setting: string, seconds: number | null | undefined): string {
  return withSettingNumbers(setting, { first_byte_timeout: seconds });
}

/** True for empty text or a JSON object; used for model redirect, status-code mapping and settings. */
export function isJsonObjectOrEmpty(text: string | undefined): boolean {
  if (!text || text.trim() === '') return true;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** Applies the spec's normalisations: no trailing slash on base_url, default API versions by type. */
export function formToChannelInput(values: ChannelFormValues): ChannelInput {
  let other = (values.other ?? '').trim();
  const extraField = findChannelType(values.type)?.extraField;
  if (extraField === 'azure' && other === '') other = azureDefaultApiVersion;
  if (extraField === 'model-version' && other === '') other = iflytekDefaultVersion;
  return {
    type: values.type,
    name: values.name.trim(),
    key: (values.key ?? '').trim(),
    base_url: (values.base_url ?? '').trim().replace(/\/+$/, ''),
    other,
    openai_organization: (values.openai_organization ?? '').trim(),
    models: values.models.join(','),
    group: values.groups.join(','),
    model_mapping: (values.model_mapping ?? '').trim(),
    status_code_mapping: (values.status_code_mapping ?? '').trim(),
    setting: withSettingNumbers(values.setting ?? '', {
      first_byte_timeout: values.first_byte_timeout,
      rpm_limit: values.rpm_limit,
      tpm_limit: values.tpm_limit,
      key_rpm_limit: values.key_rpm_limit,
      key_tpm_limit: values.key_tpm_limit,
    }),
    test_model: (values.test_model ?? '').trim(),
    auto_ban: values.auto_ban ? 1 : 0,
    tag: (values.tag ?? '').trim(),
    priority: Math.trunc(Number(values.priority) || 0),
    weight: Math.max(0, Math.trunc(Number(values.weight) || 0)),
  };
}
