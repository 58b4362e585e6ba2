import { z } from 'zod';
import { idNumber, nameText } from './input-fields.ts';

/**
 * new-api's prefill group: a named list of models, tags or endpoints (`type`) that its later console
 * offers in the channel form. `items` is the list itself.
 */
export interface PrefillGroupView {
  id: number;
  name: string;
  type: string;
  items: string[];
  description: string;
  created_time: number;
  updated_time: number;
}

export const prefillGroupLimits = { name: 64, type: 32, description: 255 } as const;

const prefillGroupFields = {
  name: nameText.max(prefillGroupLimits.name).nullish(),
  type: nameText.max(prefillGroupLimits.type).nullish(),
  items: z.array(nameText).nullish(),
  description: z.string().max(prefillGroupLimits.description).nullish(),
};

export const createPrefillGroupSchema = z.object(prefillGroupFields);
export const updatePrefillGroupSchema = z.object({ ...prefillGroupFields, id: idNumber });
