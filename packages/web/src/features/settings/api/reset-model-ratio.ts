import { api } from '../../../lib/api-client.ts';

/** POST /api/option/rest_model_ratio (sic, the classic path): model ratios back to the defaults. */
export function resetModelRatio(): Promise<unknown> {
  return api.post('/api/option/rest_model_ratio');
}
