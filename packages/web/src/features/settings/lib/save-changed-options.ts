import { updateOption } from '../api/update-option.ts';

export type SaveOutcome = 'unchanged' | 'saved' | 'partial' | 'failed';

export interface SaveResult {
  outcome: SaveOutcome;
  /** The first server message of a failed key, shown with the partial/failed toast. */
  firstError?: string;
}

/**
 * Sends only the keys whose text differs from what was loaded. Secrets count as changed only when
 * something was typed (an empty secret field means 'keep the stored one').
 */
export async function saveChangedOptions(draft: Record<string, string>, loaded: Record<string, string>, secretKeys: ReadonlySet<string>): Promise<SaveResult> {
  const changed = Object.entries(draft).filter(([key, value]) => (secretKeys.has(key) ? value !== '' : value !== (loaded[key] ?? '')));
  if (changed.length === 0) return { outcome: 'unchanged' };
  // One at a time: the server checks some keys against others (e.g. enabling a login needs its secret saved first).
  let failures = 0;
  let firstError: string | undefined;
  for (const [key, value] of changed) {
    try {
      await updateOption(key, value);
    } catch (error) {
      failures += 1;
      firstError ??= error instanceof Error ? error.message : String(error);
    }
  }
  if (failures === 0) return { outcome: 'saved' };
  return { outcome: failures === changed.length ? 'failed' : 'partial', firstError };
}
