/**
 * The key text of a channel holds one key per line (a multi-key channel uses one at random per
 * request; the console's batch mode makes one channel per line), except JSON credentials: a Vertex
 * service account as Google downloads it is pretty-printed over many lines and is one key.
 */
export function isJsonCredential(keyText: string): boolean {
  const trimmed = keyText.trim();
  return trimmed.startsWith('{') || trimmed.startsWith('[');
}

/** The keys in a channel's key text: the JSON credential whole, otherwise the non-empty trimmed lines. */
export function splitChannelKeys(keyText: string): string[] {
  const trimmed = keyText.trim();
  if (isJsonCredential(trimmed)) return [trimmed];
  return trimmed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
