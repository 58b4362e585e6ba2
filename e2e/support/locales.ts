import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from './browser.ts';
import { webRoot } from './paths.ts';

type Tree = { [key: string]: string | Tree };

/**
 * The console's own strings, so a test finds a label the way a user reads it in either language
 * without copying the text: `text('settings', 'zh')('sections.general')`.
 */
export function localeText(namespace: string, language: Language): (key: string, values?: Record<string, string | number>) => string {
  const tree = JSON.parse(readFileSync(join(webRoot, 'src', 'locales', language, `${namespace}.json`), 'utf8')) as Tree;
  return (key, values = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no locale key ${namespace}:${key} in ${language}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name] ?? ''));
  };
}
