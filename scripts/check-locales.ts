/** `npm run check:locales`: fails when the console's zh and en locale files disagree. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareLocales, type LocaleTree } from './lib/locale-check.ts';

const localesRoot = new URL('../packages/web/src/locales', import.meta.url).pathname;
const namespaces: Record<string, Record<string, LocaleTree>> = {};
for (const language of readdirSync(localesRoot)) {
  const folder = join(localesRoot, language);
  namespaces[language] = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    try {
      namespaces[language][file.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(folder, file), 'utf8')) as LocaleTree;
    } catch (error) {
      console.error(`${language}/${file}: ${(error as Error).message}`);
      process.exit(1);
    }
  }
}

const problems = compareLocales(namespaces);
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
const count = Object.keys(namespaces.zh ?? {}).length;
console.log(`${count} namespaces agree in ${Object.keys(namespaces).join(', ')}`);
