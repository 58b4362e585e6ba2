/**
 * Compares the console's locale trees. Every namespace file must exist in every language, with the
 * same keys, no empty strings and the same `{{placeholders}}` per key, so a half-translated screen
 * fails `npm test` instead of showing raw keys to users.
 */
export type LocaleTree = Record<string, unknown>;

export function flattenKeys(tree: LocaleTree, prefix = ''): Map<string, unknown> {
  const keys = new Map<string, unknown>();
  for (const [name, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [nested, leaf] of flattenKeys(value as LocaleTree, path)) keys.set(nested, leaf);
    } else {
      keys.set(path, value);
    }
  }
  return keys;
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)]
    .map((match) => match[1])
    .sort()
    .join(',');
}

/** `namespaces[language][namespace]` → problems, one line each. */
export function compareLocales(namespaces: Record<string, Record<string, LocaleTree>>, reference = 'zh'): string[] {
  const problems: string[] = [];
  const languages = Object.keys(namespaces);
  const allNamespaces = new Set(languages.flatMap((language) => Object.keys(namespaces[language] ?? {})));
  for (const namespace of [...allNamespaces].sort()) {
    const base = namespaces[reference]?.[namespace];
    for (const language of languages) {
      const tree = namespaces[language]?.[namespace];
      if (!tree) {
        problems.push(`${language}/${namespace}.json is missing`);
        continue;
      }
      const keys = flattenKeys(tree);
      for (const [key, value] of keys) {
        if (typeof value !== 'string' || value.trim() === '') problems.push(`${language}/${namespace}.json: "${key}" is empty or not a string`);
      }
      if (!base || language === reference) continue;
      const baseKeys = flattenKeys(base);
      for (const [key, value] of baseKeys) {
        if (!keys.has(key)) problems.push(`${language}/${namespace}.json: missing "${key}"`);
        else if (typeof value === 'string' && placeholders(value) !== placeholders(String(keys.get(key)))) {
          problems.push(
            `${language}/${namespace}.json: "${key}" has placeholders {${placeholders(String(keys.get(key)))}} but ${reference} has {${placeholders(value)}}`,
          );
        }
      }
      for (const key of keys.keys()) if (!baseKeys.has(key)) problems.push(`${language}/${namespace}.json: "${key}" is not in ${reference}`);
    }
  }
  return problems;
}
