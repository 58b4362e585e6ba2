import { App, Button, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ChatLinkState } from '../lib/use-chat-link.ts';

/** How long the no-token message stays before the user is taken to /token (the spec's 1.5 s). */
const redirectDelayMs = 1500;

/** Says the spec's message and, after 1.5 s, takes the user to /token where a key can be enabled. */
function NoTokenNotice() {
  const { t } = useTranslation('chat');
  const { message } = App.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    // A fixed key: a remount (StrictMode, a fast reload of the state) replaces the toast, not doubles it.
    void message.error({ content: t('noEnabledToken'), key: 'chat-no-token' });
    const timer = window.setTimeout(() => void navigate('/token'), redirectDelayMs);
    return () => window.clearTimeout(timer);
  }, [message, navigate, t]);
  return (
    <Result
      status="warning"
      title={t('noEnabledToken')}
      extra={
        <Link to="/token">
          <Button type="primary">{t('goToTokens')}</Button>
        </Link>
      }
      data-testid="chat-notice"
    />
  );
}

/** Everything a chat page shows instead of the chat: loading, missing or broken links, failed loads, no token. */
export function ChatNotice({ state }: { state: Exclude<ChatLinkState, { kind: 'ready' }> }) {
  const { t } = useTranslation('chat');
  switch (state.kind) {
    case 'loading':
      return <Spin size="large" style={{ display: 'block', padding: 96 }} />;
    case 'invalid':
      return <Result status="error" title={t('configError')} data-testid="chat-notice" />;
    case 'missing':
      return <Result status="info" title={t('missingLink')} data-testid="chat-notice" />;
    case 'error':
      return <Result status="error" title={t('loadFailed')} subTitle={state.message} data-testid="chat-notice" />;
    case 'no-token':
      return <NoTokenNotice />;
  }
}
