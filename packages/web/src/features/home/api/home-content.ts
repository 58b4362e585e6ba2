import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/home_page_content (public): the administrator's home page, '' for the default one. */
export function useHomeContent() {
  return useQuery({ queryKey: ['home-content'], queryFn: () => api.get<string>('/api/home_page_content'), staleTime: 60_000 });
}
