import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type LegalDocumentKind = 'user-agreement' | 'privacy-policy';

/** GET /api/user-agreement or /api/privacy-policy (public): the administrator's Markdown, '' when unset. */
export function useLegalDocument(kind: LegalDocumentKind, enabled: boolean) {
  return useQuery({ queryKey: ['legal-document', kind], queryFn: () => api.get<string>(`/api/${kind}`), enabled, staleTime: 60_000 });
}
