import { idText } from '@switchboard/contracts';
import { z } from 'zod';
import { parseInput } from './parse-input.ts';

const idParameters = z.object({ id: idText });

/** The `:id` of a route (`/api/token/:id`): positive digits only, else a 400 naming `id`. */
export function routeId(params: unknown): number {
  return parseInput(idParameters, params).id;
}
