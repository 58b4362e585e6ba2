import { optionDefinitions, updateOptionRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { isSecretOptionKey, normaliseOptionWrite } from './option-validation.ts';

const root = { config: { access: 'root' as const } };

/**
 * Settings, super administrator only. A write lands in the database and this instance's memory at
 * once, and is answered once the other processes have it too (see ChangeBus.publish).
 */
export function registerOptionRoutes(app: FastifyInstance, options: OptionStore): void {
  for (const url of ['/api/option/', '/api/option']) registerReadAndWrite(app, options, url);

  app.post('/api/option/rest_model_ratio', root, async () => {
    await options.set('ModelRatio', optionDefinitions.ModelRatio.defaultValue);
    return ok();
  });
}

function registerReadAndWrite(app: FastifyInstance, options: OptionStore, url: string): void {
  app.get(url, root, async () => {
    const items = options
      .entries()
      .filter(([key]) => !isSecretOptionKey(key))
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([key, value]) => ({ key, value }));
    return ok(items);
  });

  app.put(url, root, async (request) => {
    const { key, value } = parseInput(updateOptionRequestSchema, request.body);
    const normalised = normaliseOptionWrite(key, value, (name) => options.get(name));
    if (normalised !== undefined) await options.set(key, normalised);
    return ok();
  });
}
