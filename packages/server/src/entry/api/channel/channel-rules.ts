import { ChannelStatus, findChannelType, firstMisshapenKey } from '@switchboard/contracts';
import type { ChannelUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { firstByteTimeoutSetting, usageLimitsSetting } from '../../relay/cache/channel-settings.ts';
import { readHeaderOverride } from '../../relay/pipeline/channel-request-shaping/header-override.ts';
import { readParamOverride } from '../../relay/pipeline/channel-request-shaping/param-override.ts';
import type { ChannelFields } from './channel-input.ts';
import { channelMessages } from './channel.messages.ts';

export const minimumPriority = -999;
const azureType = 3;
const iflytekType = 18;

function isJsonObject(text: string): boolean {
  const parsed = safeParseJson(text);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
}

/** Models as the comma list the abilities are built from; a model named twice is refused. */
export function normalizeModels(models: string): string {
  const names = models
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const duplicates = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (duplicates.length > 0) throw new AppError(channelMessages.duplicateModels, { params: { models: duplicates.join(', ') } });
  return names.join(',');
}

function normalizeGroups(groups: string): string {
  return [
    ...new Set(
      groups
        .split(',')
        .map((group) => group.trim())
        .filter((group) => group !== ''),
    ),
  ].join(',');
}

export function checkModelMapping(text: string): void {
  if (text.trim() !== '' && !isJsonObject(text)) throw new AppError(channelMessages.modelMappingInvalid);
}

export function checkPriority(priority: number): void {
  if (priority < minimumPriority) throw new AppError(channelMessages.priorityTooLow);
}

/**
 * Turns the given (present) fields into column values, with the spec's checks: JSON fields must be
 * objects, no duplicate models, priority ≥ −999, weight ≥ 0 (clamped instead on a row edit), no
 * trailing slash on base_url. Absent fields stay absent, so this serves creates and partial updates.
 */
export function channelColumnsFrom(fields: ChannelFields, options: { clampWeight: boolean }): ChannelUpdate {
  const columns: ChannelUpdate = {};
  if (fields.type !== undefined) {
    if (fields.type <= 0) throw new AppError(channelMessages.typeInvalid);
    columns.type = fields.type;
  }
  if (fields.key !== undefined && fields.key !== null && fields.key.trim() !== '') columns.key = fields.key.trim();
  if (fields.openai_organization !== undefined) columns.open_ai_organization = fields.openai_organization ?? '';
  if (fields.test_model !== undefined) columns.test_model = fields.test_model?.trim() ?? '';
  if (fields.status !== undefined) {
    const allowed: number[] = [ChannelStatus.enabled, ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled];
    if (!allowed.includes(fields.status)) throw new AppError(channelMessages.statusInvalid);
    columns.status = fields.status;
  }
  if (fields.name !== undefined) columns.name = fields.name?.trim() ?? '';
  if (fields.weight !== undefined) {
    if (fields.weight < 0 && !options.clampWeight) throw new AppError(channelMessages.weightInvalid);
    columns.weight = Math.max(0, fields.weight);
  }
  if (fields.priority !== undefined) {
    checkPriority(fields.priority);
    columns.priority = fields.priority;
  }
  if (fields.base_url !== undefined) columns.base_url = (fields.base_url ?? '').trim().replace(/\/+$/, '');
  if (fields.other !== undefined) columns.other = fields.other ?? '';
  if (fields.models !== undefined) columns.models = normalizeModels(fields.models ?? '');
  if (fields.group !== undefined) columns.group = normalizeGroups(fields.group ?? '');
  if (fields.model_mapping !== undefined) {
    checkModelMapping(fields.model_mapping ?? '');
    columns.model_mapping = fields.model_mapping ?? '';
  }
  if (fields.status_code_mapping !== undefined) {
    const text = fields.status_code_mapping ?? '';
    if (text.trim() !== '' && !isJsonObject(text)) throw new AppError(channelMessages.statusCodeMappingInvalid);
    columns.status_code_mapping = text;
  }
  for (const field of ['setting', 'param_override', 'header_override'] as const) {
    const value = fields[field];
    if (value === undefined) continue;
    if (value !== null && value.trim() !== '' && !isJsonObject(value)) throw new AppError(channelMessages.jsonFieldInvalid, { params: { field } });
    if (field === 'setting' && value && firstByteTimeoutSetting(value) === 'invalid') throw new AppError(channelMessages.firstByteTimeoutInvalid);
    if (field === 'setting' && value && usageLimitsSetting(value) === 'invalid') throw new AppError(channelMessages.usageLimitInvalid);
    // What the relay could not apply is refused here, rather than ignored on every request.
    const parsed = field !== 'setting' && value?.trim() ? safeParseJson(value) : undefined;
    if (field === 'param_override' && parsed?.ok && readParamOverride(parsed.value) === 'invalid') throw new AppError(channelMessages.paramOverrideInvalid);
    if (field === 'header_override' && parsed?.ok && readHeaderOverride(parsed.value) === 'invalid') throw new AppError(channelMessages.headerOverrideInvalid);
    columns[field] = value ?? '';
  }
  if (fields.auto_ban !== undefined) columns.auto_ban = fields.auto_ban === 0 ? 0 : 1;
  if (fields.tag !== undefined) columns.tag = fields.tag?.trim() ? fields.tag.trim() : null;
  if (fields.remark !== undefined) columns.remark = fields.remark ?? '';
  if (fields.channel_info !== undefined) columns.channel_info = channelInfoColumn(fields.channel_info);
  return columns;
}

/**
 * A key the relay could not use (`APIKey|SecretKey` typed as one plain key, a Vertex JSON missing its
 * private key, …) would fail at every request: it is refused on save, naming the expected format.
 */
export function checkKeyFormat(type: number, keyText: string): void {
  const position = firstMisshapenKey(type, keyText);
  if (position === undefined) return;
  const info = findChannelType(type);
  throw new AppError(channelMessages.keyFormatInvalid, { params: { label: info?.label ?? String(type), format: info?.keyFormat?.pattern ?? '', position } });
}

/** What every stored channel must have after a create or an edit. */
export function checkCompleteChannel(channel: { key?: string | null; name?: string | null; models?: string | null }): void {
  if (!channel.key?.trim()) throw new AppError(channelMessages.keyRequired);
  if (!channel.name?.trim()) throw new AppError(channelMessages.nameRequired);
  if (!channel.models?.trim()) throw new AppError(channelMessages.modelsRequired);
}

/**
 * new-api's channel form's other two required fields. Checked on what the caller sent, not on the stored row:
 * a new channel must name them, and an edit may not empty them, but a status or priority change on
 * an imported row that lacks them still goes through.
 */
export function checkTypeAndGroups(columns: { type?: number | null | undefined; group?: string | null | undefined }, creating: boolean): void {
  // A type that is sent is already checked (positive) by channelColumnsFrom.
  if (creating && !columns.type) throw new AppError(channelMessages.typeRequired);
  if (creating ? !columns.group : columns.group !== undefined && !columns.group) throw new AppError(channelMessages.groupsRequired);
}

/** Azure needs an API version and iFlytek a model version; an empty one gets the spec's default. */
export function defaultOther(type: number, other: string | null | undefined): string | undefined {
  if (other?.trim()) return undefined;
  if (type === azureType) return '2023-06-01-preview';
  if (type === iflytekType) return 'v2.1';
  return undefined;
}

/**
 * `channel_info` as stored: JSON text of an object (new-api's multi-key settings); empty clears it to
 * NULL (a database moved over from new-api has the column as `json`, where '' is not a value).
 */
function channelInfoColumn(value: Record<string, unknown> | string | null): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') return JSON.stringify(value);
  if (!isJsonObject(value)) throw new AppError(channelMessages.jsonFieldInvalid, { params: { field: 'channel_info' } });
  return value;
}
