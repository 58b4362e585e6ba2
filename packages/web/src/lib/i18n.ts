import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Console strings come from one JSON file per feature and language under `src/locales/<lng>/`; the
 * file name is the i18next namespace (`t('login.title', { ns: 'auth' })` or `useTranslation('auth')`).
 * `npm test` checks that zh and en have the same files, keys and placeholders.
 */
export const languages = ['zh', 'en'] as const;
export type Language = (typeof languages)[number];
export const languageStorageKey = 'i18nextLng';

const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, module] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language = '', namespace = ''] = match;
  (resources[language] ??= {})[namespace] = module.default;
}

export function storedLanguage(): Language {
  const stored = localStorage.getItem(languageStorageKey) ?? '';
  return stored.startsWith('en') ? 'en' : 'zh';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'zh',
  defaultNS: 'common',
  ns: Object.keys(resources.zh ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function changeLanguage(language: Language): void {
  localStorage.setItem(languageStorageKey, language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  void i18n.changeLanguage(language);
}

export default i18n;
