import { Button, Empty, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { chatLinkTemplates } from '../../lib/chat-links.ts';
import { systemNameOf, useStatusValue } from '../../lib/system-status.ts';
import { useFirstTokenKey } from './api/first-token-key.ts';
import { fillChatLink, isWebLink } from './lib/chat-url.ts';

/** /chat/{id}: the id-th configured chat front end, opened with the user's first token. */
export default function ChatPage() {
  const { t } = useTranslation('chat');
  const { id = '0' } = useParams();
  const status = useStatusValue();
  const token = useFirstTokenKey();
  const template = chatLinkTemplates(status)[Number(id)];

  if (!template) return <Empty description={t('noLink')} style={{ padding: 48 }} />;
  if (token.isLoading) return <Skeleton active style={{ padding: 24 }} />;
  if (!token.data) {
    return (
      <Result
        status="info"
        title={t('noToken')}
        extra={
          <Link to="/token">
            <Button type="primary">{t('createToken')}</Button>
          </Link>
        }
      />
    );
  }
  const url = fillChatLink(template.url, token.data, status?.server_address || window.location.origin, systemNameOf(status));
  if (isWebLink(url)) return <iframe src={url} title={template.name} style={{ width: '100%', height: 'calc(100vh - 64px)', border: 'none', display: 'block' }} />;
  // Desktop apps (cherrystudio://…) cannot be framed: hand the link to the operating system.
  return (
    <Result
      status="info"
      title={t('openApp', { name: template.name })}
      extra={
        <Button type="primary" href={url}>
          {t('open')}
        </Button>
      }
    />
  );
}
