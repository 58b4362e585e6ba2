import { Flex, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { chat2LinkTemplate } from '../../lib/chat-links.ts';
import { KeyLeavingGate } from '../../components/key-leaving-confirm.tsx';
import { ChatNotice } from './components/chat-notice.tsx';
import { useChatLink } from './lib/use-chat-link.ts';
import { useKeyLeavingGate } from './lib/use-key-leaving-gate.ts';

/** /chat2link: goes straight to the chat front end (ChatLink, else the first web one) with the user's key filled in. */
export default function ChatLinkPage() {
  const { t } = useTranslation('chat');
  const state = useChatLink(chat2LinkTemplate);
  const gate = useKeyLeavingGate(state);
  const target = state.kind === 'ready' && !gate.host ? state.url : '';

  useEffect(() => {
    if (target) window.location.assign(target);
  }, [target]);

  if (state.kind !== 'ready') return <ChatNotice state={state} />;
  if (gate.host) return <KeyLeavingGate host={gate.host} onProceed={gate.proceed} />;
  return (
    <Flex vertical align="center" gap={16} style={{ padding: 96 }}>
      <Spin size="large" />
      <Typography.Text type="secondary">{t('redirecting')}</Typography.Text>
    </Flex>
  );
}
