import { channelTypes } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';

/** `GET /api/models`: each channel type's default models, for the channel form's "fill related". */
export function defaultModelsByType(): Record<string, string[]> {
  return Object.fromEntries(channelTypes.map((info) => [String(info.type), [...(info.defaultModels ?? [])]]));
}

/** A model in the OpenAI model-object shape. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/**
 * `GET /api/channel/models`: every model the gateway knows (defaults of every type and every priced
 * model), in the OpenAI model-object shape the console's model picker reads.
 */
export function knownModels(options: OptionStore, now: number): ModelObject[] {
  const names = new Set<string>();
  for (const info of channelTypes) for (const model of info.defaultModels ?? []) names.add(model);
  for (const key of ['ModelRatio', 'ModelPrice'] as const)
    for (const model of Object.keys(options.getJson<Record<string, number>>(key) ?? {})) names.add(model);
  return [...names].sort().map((id) => ({ id, object: 'model' as const, created: now, owned_by: 'switchboard' }));
}
