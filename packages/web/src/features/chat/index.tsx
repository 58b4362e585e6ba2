import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { chatLinksOf, isWebLink } from '../../lib/chat-links.ts';
import { KeyLeavingGate } from '../../components/key-leaving-confirm.tsx';
import { ChatNotice } from './components/chat-notice.tsx';
import { useChatLink } from './lib/use-chat-link.ts';
import { useKeyLeavingGate } from './lib/use-key-leaving-gate.ts';

/** /chat/{id}: the id-th configured chat front end (the first without an id), opened with the user's first enabled token. */
export default function ChatPage() {
  const { t } = useTranslation('chat');
  const { id = '0' } = useParams();
  const state = useChatLink((status) => {
    const links = chatLinksOf(status);
    return links === 'invalid' ? links : links[Number(id)];
  });
  const gate = useKeyLeavingGate(state);

  if (state.kind !== 'ready') return <ChatNotice state={state} />;
  if (gate.host) return <KeyLeavingGate host={gate.host} onProceed={gate.proceed} />;
  if (isWebLink(state.url)) {
    return (
      <iframe
        src={state.url}
        title={state.name}
        allow="camera; microphone"
        style={{ width: '100%', height: 'calc(100vh - 64px)', border: 'none', display: 'block' }}
        data-testid="chat-frame"
      />
    );
  }
  // Desktop apps (cherrystudio://…) cannot be framed: the button hands the link to the operating system.
  return (
    <Result
      status="info"
      title={t('openApp', { name: state.name })}
      extra={
        <Button type="primary" href={state.url}>
          {t('open')}
        </Button>
      }
    />
  );
}
