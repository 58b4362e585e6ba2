import { api } from '../../../lib/api-client.ts';

/** `PUT /api/token/?status_only=true`: enables (1) or disables (2) a token without touching the rest. */
export function setTokenStatus(id: number, status: 1 | 2): Promise<unknown> {
  return api.put('/api/token/', { id, status }, { status_only: true });
}
