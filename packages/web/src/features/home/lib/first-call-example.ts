/** The placeholder shown where the key goes when the token list does not give it (a second factor masks keys). */
export const keyPlaceholder = 'sk-…';

/**
 * The example call of the home checklist: a chat completion against this gateway's address, with the
 * administrator's first key and the first channel's first model, ready to paste into a terminal.
 */
export function firstCallCurl(address: string, key: string | undefined, model: string | undefined): string {
  const fullKey = !key || key.includes('*') ? keyPlaceholder : key.startsWith('sk-') ? key : `sk-${key}`;
  const body = JSON.stringify({ model: model || 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  return [
    `curl ${address.replace(/\/+$/, '')}/v1/chat/completions \\`,
    `  -H "Authorization: Bearer ${fullKey}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join('\n');
}

/** A channel's first model, from its comma-separated list. */
export function firstModelOf(models: string | undefined): string | undefined {
  return models
    ?.split(',')
    .map((model) => model.trim())
    .find(Boolean);
}
