import { useQuery } from '@tanstack/react-query';
import { requestWithExtras } from '../../../lib/api-client.ts';

/** One model of the public price list. */
export interface PricingEntry {
  model_name: string;
  /** 0 per token (ratios), 1 per call (fixed price). */
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  /** Groups whose channels serve this model. */
  enable_groups: string[];
}

export interface Pricing {
  models: PricingEntry[];
  groupRatio: Record<string, number>;
  /** Groups the caller may use, mapped to their description. */
  usableGroups: Record<string, string>;
}

/** `GET /api/pricing`: the list in `data`, with `group_ratio` and `usable_group` beside it. */
export async function getPricing(): Promise<Pricing> {
  const answer = await requestWithExtras<{ group_ratio?: Record<string, number>; usable_group?: Record<string, string> }>('GET', '/api/pricing');
  return {
    models: Array.isArray(answer.data) ? (answer.data as PricingEntry[]) : [],
    groupRatio: answer.group_ratio ?? {},
    usableGroups: answer.usable_group ?? {},
  };
}

export function usePricing() {
  return useQuery({ queryKey: ['pricing'], queryFn: getPricing, staleTime: 60_000 });
}
