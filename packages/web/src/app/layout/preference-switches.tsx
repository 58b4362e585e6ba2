import { MoonOutlined, SunOutlined, TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, type Language } from '../../lib/i18n.ts';
import { setTheme, useTheme } from '../../lib/theme.ts';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const mode = useTheme();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip title={t(mode === 'dark' ? 'nav.lightTheme' : 'nav.darkTheme')}>
      <Button
        type="text"
        aria-label={t(mode === 'dark' ? 'nav.lightTheme' : 'nav.darkTheme')}
        data-testid="theme-switch"
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => setTheme(next)}
      />
    </Tooltip>
  );
}

const languageLabels: Record<Language, string> = { zh: '简体中文', en: 'English' };

/** Language names are shown in their own language, so they are not translated. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current: Language = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: (Object.keys(languageLabels) as Language[]).map((language) => ({ key: language, label: languageLabels[language] })),
        onClick: ({ key }) => changeLanguage(key as Language),
      }}
    >
      <Button type="text" aria-label={t('nav.language')} data-testid="language-menu" icon={<TranslationOutlined />} />
    </Dropdown>
  );
}
