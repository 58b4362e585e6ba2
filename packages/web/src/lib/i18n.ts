import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Console strings come from one JSON file per feature and language under `src/locales/<lng>/`; the
 * file name is the i18next namespace (`t('login.title', { ns: 'auth' })` or `useTranslation('auth')`).
 * `npm test` checks that zh and en have the same files, keys and placeholders.
 *
 * Only `common` (shell, HTTP messages) is bundled; a feature's namespace is fetched in the current
 * language when its page first asks for it, so locale files never grow the first screen's JavaScript.
 * `useTranslation('<feature>')` suspends until then, under the layout's Suspense spinner.
 */
export const languages = ['zh', 'en'] as const;
export type Language = (typeof languages)[number];
export const languageStorageKey = 'i18nextLng';

type LocaleModule = { default: ResourceKey };
const bundled = import.meta.glob<LocaleModule>('../locales/*/common.json', { eager: true });
const lazy = import.meta.glob<LocaleModule>(['../locales/*/*.json', '!../locales/*/common.json']);

const resources: Record<string, Record<string, ResourceKey>> = {};
for (const [path, module] of Object.entries(bundled)) {
  const language = /locales\/(\w+)\/common\.json$/.exec(path)?.[1];
  if (language) (resources[language] ??= {}).common = module.default;
}

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = lazy[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export function storedLanguage(): Language {
  const stored = localStorage.getItem(languageStorageKey) ?? '';
  return stored.startsWith('en') ? 'en' : 'zh';
}

void i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources,
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: 'zh',
    // Only the chosen language is fetched; a missing key falls back to zh only for `common`.
    load: 'currentOnly',
    defaultNS: 'common',
    ns: ['common'],
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export function changeLanguage(language: Language): void {
  localStorage.setItem(languageStorageKey, language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  void i18n.changeLanguage(language);
}

export default i18n;
