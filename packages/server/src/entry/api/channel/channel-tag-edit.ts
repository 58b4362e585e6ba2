import type { ChannelUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { EditTagInput } from './channel-input.ts';
import { checkModelMapping, checkPriority, normalizeModels } from './channel-rules.ts';
import { channelMessages } from './channel.messages.ts';

function given(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

function toInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/**
 * The tag dialog's fields are overwrite-only: what is given replaces the value on every channel of the
 * tag, what is left empty stays. An empty (but present) new tag dissolves the tag.
 */
export function tagEditColumns(input: EditTagInput): ChannelUpdate {
  const columns: ChannelUpdate = {};
  if (input.new_tag !== undefined && input.new_tag !== null) columns.tag = input.new_tag.trim() === '' ? null : input.new_tag.trim();
  if (given(input.model_mapping)) {
    checkModelMapping(input.model_mapping ?? '');
    columns.model_mapping = input.model_mapping ?? '';
  }
  if (given(input.models)) columns.models = normalizeModels(input.models ?? '');
  if (given(input.groups))
    columns.group = [
      ...new Set(
        (input.groups ?? '')
          .split(',')
          .map((group) => group.trim())
          .filter(Boolean),
      ),
    ].join(',');
  if (given(input.priority)) {
    const priority = toInteger(input.priority);
    if (priority === undefined) throw new AppError(channelMessages.priorityNotInteger);
    checkPriority(priority);
    columns.priority = priority;
  }
  if (given(input.weight)) {
    const weight = toInteger(input.weight);
    if (weight === undefined || weight < 0) throw new AppError(channelMessages.weightInvalid);
    columns.weight = weight;
  }
  if (Object.keys(columns).length === 0) throw new AppError(channelMessages.noChanges);
  return columns;
}
