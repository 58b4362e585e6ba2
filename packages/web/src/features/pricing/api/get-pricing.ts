import type { PricingAnswer, PricingEntry, PricingVendor } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { requestWithExtras } from '../../../lib/api-client.ts';

export interface Pricing {
  models: PricingEntry[];
  groupRatio: Record<string, number>;
  /** Groups the caller may use, mapped to their description. */
  usableGroups: Record<string, string>;
  /** The model catalogue's vendors (`vendor_id` of an entry points into it). */
  vendors: PricingVendor[];
}

/** `GET /api/pricing`: the list in `data`, with `group_ratio`, `usable_group` and `vendors` beside it. */
export async function getPricing(): Promise<Pricing> {
  const answer = await requestWithExtras<PricingAnswer>('GET', '/api/pricing');
  return {
    models: Array.isArray(answer.data) ? answer.data : [],
    groupRatio: answer.group_ratio ?? {},
    usableGroups: answer.usable_group ?? {},
    vendors: Array.isArray(answer.vendors) ? answer.vendors : [],
  };
}

export function usePricing() {
  return useQuery({ queryKey: ['pricing'], queryFn: getPricing, staleTime: 60_000 });
}
