/**
 * new-api's tool prices (`tool_price_setting.prices`): US dollars per 1,000 calls of a server-side
 * tool. Keys are a tool name (`web_search`, every model) or `tool:model-prefix*` (models whose name
 * starts with the prefix; the longest prefix wins). The operator's entries override the built-in
 * ones; a matched 0 makes the tool free.
 */
const builtInToolPrices: Readonly<Record<string, number>> = { web_search: 10 };

const usable = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The price of `tool` for `model`, US dollars per 1,000 calls (0 when none is set). */
export function toolPrice(operatorPrices: Readonly<Record<string, number>>, tool: string, model: string): number {
  let best: number | undefined;
  let bestLength = -1;
  for (const prices of [builtInToolPrices, operatorPrices]) {
    for (const [key, price] of Object.entries(prices)) {
      if (!usable(price) || !key.startsWith(`${tool}:`)) continue;
      const prefix = key.slice(tool.length + 1).replace(/\*$/, '');
      // The operator's entry of the same length replaces the built-in one (it is read second).
      if (model.startsWith(prefix) && prefix.length >= bestLength) {
        best = price;
        bestLength = prefix.length;
      }
    }
  }
  if (best !== undefined) return best;
  const own = operatorPrices[tool];
  if (usable(own)) return own;
  return builtInToolPrices[tool] ?? 0;
}
