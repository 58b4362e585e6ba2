import { Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RichContent } from '../../components/rich-content.tsx';
import { systemNameOf, useStatusValue } from '../../lib/system-status.ts';
import { useAboutContent } from './api/about-content.ts';

/** /about: the administrator's about text, or a short default. */
export default function AboutPage() {
  const { t } = useTranslation('about');
  const status = useStatusValue();
  const about = useAboutContent();
  const content = about.data?.trim() ?? '';
  if (about.isLoading) return <Skeleton active />;
  if (content && /^https:\/\//.test(content)) return <RichContent content={content} title={t('title')} />;
  return (
    <Card title={t('title')}>
      {content ? (
        <RichContent content={content} title={t('title')} />
      ) : (
        <>
          <Typography.Paragraph>{t('default', { name: systemNameOf(status) })}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
        </>
      )}
    </Card>
  );
}
