import type { ChannelView } from '@switchboard/contracts';
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
    test_model: channel.test_model ?? '',
    auto_ban: channel.auto_ban !== 0,
    status_code_mapping: channel.status_code_mapping ?? '',
    tag: channel.tag ?? '',
    priority: channel.priority ?? 0,
    weight: channel.weight ?? 0,
  };
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
  if (values.type === 3 && other === '') other = azureDefaultApiVersion;
  if (values.type === 18 && other === '') other = iflytekDefaultVersion;
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
    setting: (values.setting ?? '').trim(),
    test_model: (values.test_model ?? '').trim(),
    auto_ban: values.auto_ban ? 1 : 0,
    tag: (values.tag ?? '').trim(),
    priority: Math.trunc(Number(values.priority) || 0),
    weight: Math.max(0, Math.trunc(Number(values.weight) || 0)),
  };
}
