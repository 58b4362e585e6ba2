import { readFileSync } from 'node:fs';
import { exportHeaders, exportNamespaces, exportTables, logTypeNames } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
const languages = ['zh', 'en'] as const;

function locale(language: string, namespace: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../locales/${language}/${namespace}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

function entry(json: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((value, part) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined), json);
}

/** The server writes the export headers from the shared table; the console shows its locale files: they must agree. */
describe('CSV export headers', () => {
  it.each(exportTables)('of %s read as the console names its columns, in both languages', (table) => {
    for (const language of languages) {
      const json = locale(language, exportNamespaces[table]);
      for (const header of Object.values(exportHeaders[table])) expect([header.locale, entry(json, header.locale)]).toEqual([header.locale, header[language]]);
    }
  });

  it('name log types as the log page does', () => {
    for (const language of languages) {
      const json = locale(language, 'logs');
      for (const [type, name] of Object.entries(logTypeNames)) expect(entry(json, `types.${type}`)).toBe(name[language]);
    }
  });
});
