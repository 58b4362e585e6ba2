import { finiteNumber, idNumber, nameText, wholeNumber } from '@switchboard/contracts';
import { z } from 'zod';

/** JSON numbers only (the console's number inputs send numbers); absent means "not given". */
const integer = wholeNumber.optional();
const text = z.string().nullish();
const name = nameText.nullish();

/** Every writable channel field of the classic wire format (`openai_organization` maps to its column). */
export const channelFieldsSchema = z.object({
  type: integer,
  key: text,
  openai_organization: text,
  test_model: text,
  status: integer,
  name,
  weight: integer,
  base_url: text,
  other: text,
  models: text,
  group: name,
  model_mapping: text,
  status_code_mapping: text,
  priority: integer,
  auto_ban: integer,
  tag: name,
  setting: text,
  param_override: text,
  header_override: text,
  remark: text,
  /** new-api's multi-key settings: an object (as new-api sends it) or its JSON text. */
  channel_info: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
});
export type ChannelFields = z.output<typeof channelFieldsSchema>;

/**
 * `POST /api/channel/`: the channel itself (classic), or `{mode, channel}` (current new-api). One
 * object rather than a union, so a bad field inside `channel` is refused by name instead of the body
 * falling back to the classic reading.
 */
export const createChannelSchema = channelFieldsSchema.extend({
  mode: z.enum(['single', 'batch', 'multi_to_single']).optional(),
  channel: channelFieldsSchema.optional(),
});

export const updateChannelSchema = channelFieldsSchema.extend({ id: idNumber });

export const idListSchema = z.object({ ids: z.array(idNumber).default([]) });

export const batchTagSchema = z.object({ ids: z.array(idNumber).default([]), tag: name });

/** `POST /api/channel/tag/{enabled,disabled}`: a missing or blank tag is the route's own message. */
export const tagSchema = z.object({ tag: name });

/**
 * `PUT /api/channel/tag`: every field overwrites when given; `null` means "not given" (new-api binds
 * these to pointers). Priority and weight are JSON numbers, whose ranges the service checks.
 */
export const editTagSchema = z.object({
  tag: name,
  new_tag: name,
  model_mapping: z.string().nullish(),
  models: z.string().nullish(),
  groups: name,
  priority: finiteNumber.nullish(),
  weight: finiteNumber.nullish(),
});
export type EditTagInput = z.output<typeof editTagSchema>;

/** `POST /api/channel/copy/:id?suffix=`: the suffix becomes part of the copy's name. */
export const copyQuerySchema = z.object({ suffix: nameText.default('_复制') });

/** `POST /api/channel/fetch_models`: an unsaved form's address, type, key and extra field (Cloudflare's account id, …). */
export const fetchModelsSchema = z.object({ base_url: z.string().nullish(), type: integer, key: z.string().nullish(), other: z.string().nullish() });
