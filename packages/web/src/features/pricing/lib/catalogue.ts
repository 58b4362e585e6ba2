import type { PricingEntry } from '@switchboard/contracts';

/** An entry's tags (new-api stores them comma-separated). */
export function tagsOf(entry: PricingEntry): string[] {
  return (entry.tags ?? '')
    .split(/[,，]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** Every tag of the list, once, sorted. */
export function allTags(entries: readonly PricingEntry[]): string[] {
  return [...new Set(entries.flatMap(tagsOf))].sort((left, right) => left.localeCompare(right));
}

export interface CatalogueFilter {
  /** A vendor id, or undefined for all. */
  vendor?: number;
  tag?: string;
}

export function matchesCatalogue(entry: PricingEntry, filter: CatalogueFilter): boolean {
  if (filter.vendor !== undefined && (entry.vendor_id ?? 0) !== filter.vendor) return false;
  if (filter.tag !== undefined && !tagsOf(entry).includes(filter.tag)) return false;
  return true;
}
