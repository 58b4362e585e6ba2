import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench's own folder (`bench/`) and the checkout it belongs to. */
export const benchRoot = fileURLToPath(new URL('../..', import.meta.url));
export const repoRoot = join(benchRoot, '..');

/** A new folder for one run of a one-file script's results: `bench/results/<kind>-<time>/`. */
export function newResultsFolder(kind: string, at = new Date()): string {
  const folder = join(benchRoot, 'results', `${kind}-${at.toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** A checkout whose Switchboard a script measures: this one, and another given as `--baseline=<path>`. */
export interface MeasuredCheckout {
  readonly id: 'switchboard' | 'baseline';
  readonly label: string;
  readonly root: string;
}

/** This checkout first, then the `--baseline` one when the script was given it. */
export function measuredCheckouts(baselineRoot: string | undefined): MeasuredCheckout[] {
  const checkouts: MeasuredCheckout[] = [{ id: 'switchboard', label: 'Switchboard, SQLite (this checkout)', root: repoRoot }];
  if (baselineRoot) checkouts.push({ id: 'baseline', label: `Switchboard, SQLite (${baselineRoot})`, root: resolve(baselineRoot) });
  return checkouts;
}
