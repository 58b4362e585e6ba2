import type { PricingAnswer, PricingEntry } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { requestWithExtras } from '../../../lib/api-client.ts';

export interface Pricing {
  models: PricingEntry[];
  groupRatio: Record<string, number>;
  /** Groups the caller may use, mapped to their description. */
  usableGroups: Record<string, string>;
}

/** `GET /api/pricing`: the list in `data`, with `group_ratio` and `usable_group` beside it. */
export async function getPricing(): Promise<Pricing> {
  const answer = await requestWithExtras<PricingAnswer>('GET', '/api/pricing');
  return {
    models: Array.isArray(answer.data) ? answer.data : [],
    groupRatio: answer.group_ratio ?? {},
    usableGroups: answer.usable_group ?? {},
  };
}

export function usePricing() {
  return useQuery({ queryKey: ['pricing'], queryFn: getPricing, staleTime: 60_000 });
}
