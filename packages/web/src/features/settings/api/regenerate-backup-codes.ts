import { api } from '../../../lib/api-client.ts';

/** POST /api/user/2fa/backup_codes: ten new codes replace the old ones (takes a code from the app). */
export async function regenerateBackupCodes(code: string): Promise<string[]> {
  return (await api.post<{ backup_codes: string[] }>('/api/user/2fa/backup_codes', { code })).backup_codes;
}
