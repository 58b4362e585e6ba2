import type { UnpricedModels } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from './api-client.ts';
import { isAdmin, useStoredUser } from './use-stored-user.ts';

export const unpricedModelsKey = ['unpriced-models'] as const;

/** `GET /api/pricing/unpriced[?models=]`: the models callers would be refused for lack of a price (none in self-use mode). */
export function getUnpricedModels(models: readonly string[] | undefined, signal?: AbortSignal): Promise<UnpricedModels> {
  return api.get<UnpricedModels>('/api/pricing/unpriced', models ? { models: models.join(',') } : undefined, signal);
}

/**
 * The unpriced models among `models` (every channel's when undefined), as a set, for an
 * administrator; always empty for anyone else (the route is theirs, and only they can set a price).
 */
export function useUnpricedModels(models?: readonly string[]): ReadonlySet<string> {
  const admin = isAdmin(useStoredUser());
  const named = models ? [...new Set(models)].sort() : undefined;
  const query = useQuery({
    queryKey: [...unpricedModelsKey, named?.join(',') ?? '*'],
    queryFn: ({ signal }) => getUnpricedModels(named, signal),
    enabled: admin && (named === undefined || named.length > 0),
  });
  return useMemo(() => new Set(query.data?.models ?? []), [query.data]);
}

/** Where a price is set: the operation settings' model pricing editor, opened on this model. */
export function setPricePath(model: string): string {
  return `/setting?tab=operation&price=${encodeURIComponent(model)}`;
}
