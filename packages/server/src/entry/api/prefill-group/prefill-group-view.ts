import type { PrefillGroupView } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { PrefillGroupRow } from './prefill-group.repository.ts';

/** The stored JSON list as text items; a list written by hand that is not one reads as empty. */
function itemsOf(stored: string | null): string[] {
  const parsed = safeParseJson(stored ?? '[]');
  if (!parsed.ok || !Array.isArray(parsed.value)) return [];
  return parsed.value.filter((item): item is string => typeof item === 'string');
}

export function toPrefillGroupView(row: PrefillGroupRow): PrefillGroupView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    items: itemsOf(row.items),
    description: row.description,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
  };
}
