import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/about (public): the administrator's about text, '' when none was set. */
export function useAboutContent() {
  return useQuery({ queryKey: ['about-content'], queryFn: () => api.get<string>('/api/about'), staleTime: 60_000 });
}
