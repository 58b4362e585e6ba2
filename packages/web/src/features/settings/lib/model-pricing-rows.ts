/** One model in the visual pricing editor; numbers are kept as typed text until saved. */
export interface PricingRow {
  name: string;
  price: string;
  ratio: string;
  completionRatio: string;
}

function numberMap(text: string | undefined): Record<string, number> {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** Rows from the ModelPrice, ModelRatio and CompletionRatio options, sorted by model name. */
export function rowsFromOptions(options: Record<string, string>): PricingRow[] {
  const price = numberMap(options.ModelPrice);
  const ratio = numberMap(options.ModelRatio);
  const completion = numberMap(options.CompletionRatio);
  const names = [...new Set([...Object.keys(price), ...Object.keys(ratio), ...Object.keys(completion)])].sort();
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return names.map((name) => ({ name, price: text(price[name]), ratio: text(ratio[name]), completionRatio: text(completion[name]) }));
}

export function isNumeric(text: string): boolean {
  return text.trim() === '' || (/^-?\d*\.?\d+(e[+-]?\d+)?$/i.test(text.trim()) && Number.isFinite(Number(text)));
}

/**
 * The three options back from the rows. A fixed price makes the row per-call, so its ratios are
 * dropped (the editor disables them too). Output is pretty-printed like the JSON tab.
 */
export function optionsFromRows(rows: PricingRow[]): { ModelPrice: string; ModelRatio: string; CompletionRatio: string } {
  const price: Record<string, number> = {};
  const ratio: Record<string, number> = {};
  const completion: Record<string, number> = {};
  for (const row of rows) {
    if (row.price.trim() !== '') {
      price[row.name] = Number(row.price);
      continue;
    }
    if (row.ratio.trim() !== '') ratio[row.name] = Number(row.ratio);
    if (row.completionRatio.trim() !== '') completion[row.name] = Number(row.completionRatio);
  }
  const json = (value: Record<string, number>) => JSON.stringify(value, null, 2);
  return { ModelPrice: json(price), ModelRatio: json(ratio), CompletionRatio: json(completion) };
}

/**
 * The table after the stored prices changed under it (another administrator, the JSON tab, a reset):
 * the rows the operator changed, added or deleted since `before` (what the table loaded) stay as they
 * are; every other row takes its stored value from `after`, and models new in `after` are added at the
 * end. Without this the reload replaced edits not yet saved.
 */
export function rebaseRows(edited: readonly PricingRow[], before: readonly PricingRow[], after: readonly PricingRow[]): PricingRow[] {
  const loaded = new Map(before.map((row) => [row.name, row]));
  const stored = new Map(after.map((row) => [row.name, row]));
  const same = (left: PricingRow | undefined, right: PricingRow | undefined) =>
    left !== undefined && right !== undefined && left.price === right.price && left.ratio === right.ratio && left.completionRatio === right.completionRatio;
  const rows: PricingRow[] = [];
  for (const row of edited) {
    if (!same(row, loaded.get(row.name))) rows.push(row);
    else {
      const now = stored.get(row.name);
      if (now) rows.push(now);
    }
  }
  const shown = new Set(edited.map((row) => row.name));
  for (const row of after) if (!loaded.has(row.name) && !shown.has(row.name)) rows.push(row);
  return rows;
}
