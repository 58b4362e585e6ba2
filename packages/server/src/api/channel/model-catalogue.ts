import { channelTypes } from '@switchboard/contracts';
import type { OptionStore } from '../../options/option-store.ts';

/** `GET /api/models`: each channel type's default models, for the channel form's "fill related". */
export function defaultModelsByType(): Record<string, string[]> {
  return Object.fromEntries(channelTypes.map((info) => [String(info.type), [...(info.defaultModels ?? [])]]));
}

/**
 * `GET /api/channel/models`: every model the gateway knows (defaults of every type and every priced
 * model), in the OpenAI model-object shape the console's model picker reads.
 */
export function knownModels(options: OptionStore, now: number) {
  const names = new Set<string>();
  for (const info of channelTypes) for (const model of info.defaultModels ?? []) names.add(model);
  for (const key of ['ModelRatio', 'ModelPrice'] as const) for (const model of Object.keys(options.getJson<Record<string, number>>(key) ?? {})) names.add(model);
  return [...names].sort().map((id) => ({ id, object: 'model', created: now, owned_by: 'switchboard' }));
}
