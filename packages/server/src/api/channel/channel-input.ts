import { z } from 'zod';

/** Numbers typed into the console may arrive as strings; empty means "not given". */
const integer = z.preprocess((value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value), z.number().int().optional());
const text = z.string().nullish();

/** Every writable channel field of the classic wire format (`openai_organization` maps to its column). */
export const channelFieldsSchema = z.object({
  type: integer,
  key: text,
  openai_organization: text,
  test_model: text,
  status: integer,
  name: text,
  weight: integer,
  base_url: text,
  other: text,
  models: text,
  group: text,
  model_mapping: text,
  status_code_mapping: text,
  priority: integer,
  auto_ban: integer,
  tag: text,
  setting: text,
  param_override: text,
  header_override: text,
  remark: text,
});
export type ChannelFields = z.output<typeof channelFieldsSchema>;

/** `POST /api/channel/`: the channel itself (classic), or `{mode, channel}` (current new-api). */
export const createChannelSchema = z.union([
  z.object({ mode: z.enum(['single', 'batch', 'multi_to_single']).optional(), channel: channelFieldsSchema }),
  channelFieldsSchema,
]);

export const updateChannelSchema = channelFieldsSchema.extend({ id: z.coerce.number().int().positive() });

export const idListSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).default([]) });

export const batchTagSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).default([]), tag: z.string().nullish() });

export const tagSchema = z.object({ tag: z.string().trim().min(1) });

/** `PUT /api/channel/tag`: every field overwrites when given; priority and weight are checked by the service. */
export const editTagSchema = z.object({
  tag: z.string().nullish(),
  new_tag: z.string().nullish(),
  model_mapping: z.string().nullish(),
  models: z.string().nullish(),
  groups: z.string().nullish(),
  priority: z.unknown().optional(),
  weight: z.unknown().optional(),
});
export type EditTagInput = z.output<typeof editTagSchema>;

export const fetchModelsSchema = z.object({ base_url: z.string().nullish(), type: z.coerce.number().int().optional(), key: z.string().nullish() });
