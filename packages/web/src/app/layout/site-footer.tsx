import DOMPurify from 'dompurify';
import { Layout, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { systemNameOf, useStatusValue } from '../../lib/system-status.ts';

/** The administrator's footer HTML (sanitised: it is shown to every visitor), else the default credit line. */
export function SiteFooter() {
  const { t } = useTranslation();
  const status = useStatusValue();
  const footerHtml = status?.footer_html ?? '';
  const safeHtml = useMemo(() => (footerHtml ? DOMPurify.sanitize(footerHtml) : ''), [footerHtml]);

  return (
    <Layout.Footer style={{ textAlign: 'center', padding: '16px 24px' }} data-testid="site-footer">
      {safeHtml ? (
        <div className="custom-footer" dangerouslySetInnerHTML={{ __html: safeHtml }} />
      ) : (
        <Typography.Text type="secondary">{t('footer.default', { name: systemNameOf(status), version: status?.version ?? '' })}</Typography.Text>
      )}
    </Layout.Footer>
  );
}
