import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const optionsKey = ['options'] as const;

/** GET /api/option/: every non-secret setting as text, keyed by name. */
export async function getOptions(): Promise<Record<string, string>> {
  const items = await api.get<Array<{ key: string; value: string }>>('/api/option/');
  return Object.fromEntries(items.map((item) => [item.key, item.value]));
}

export function useOptions() {
  return useQuery({ queryKey: optionsKey, queryFn: getOptions, staleTime: 0 });
}
