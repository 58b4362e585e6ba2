import type { SetupState } from '@switchboard/contracts';
import { api } from './api-client.ts';

export const setupStateKey = ['setup-state'] as const;

/** `GET /api/setup`: whether the first-run setup is done (read by the login, the setup page and the home checklist). */
export function getSetupState(signal?: AbortSignal): Promise<SetupState> {
  return api.get<SetupState>('/api/setup', undefined, signal);
}
