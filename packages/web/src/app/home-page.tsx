import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function HomePage() {
  const { t } = useTranslation();
  return (
    <main style={{ padding: 48 }}>
      <Typography.Title>{t('home.title')}</Typography.Title>
      <Typography.Paragraph>{t('home.subtitle')}</Typography.Paragraph>
    </main>
  );
}
