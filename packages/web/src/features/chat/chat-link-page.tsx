import { Empty, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { systemNameOf, useStatusValue } from '../../lib/system-status.ts';
import { useFirstTokenKey } from './api/first-token-key.ts';
import { chatLinkTemplates } from '../../lib/chat-links.ts';
import { fillChatLink } from './lib/chat-url.ts';

/** /chat2link: goes straight to the first chat front end with the user's token filled in. */
export default function ChatLinkPage() {
  const { t } = useTranslation('chat');
  const status = useStatusValue();
  const token = useFirstTokenKey();
  const template = chatLinkTemplates(status)[0];
  const target = template && token.data ? fillChatLink(template.url, token.data, status?.server_address || window.location.origin, systemNameOf(status)) : '';

  useEffect(() => {
    if (target) window.location.assign(target);
  }, [target]);

  if (!template || (token.isSuccess && !token.data)) return <Empty description={t(template ? 'noToken' : 'noLink')} style={{ padding: 48 }} />;
  return <Spin size="large" style={{ display: 'block', padding: 96 }} />;
}
