import { Card, Col, Empty, Flex, Row } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Composer } from './components/composer.tsx';
import { MessageBubble } from './components/message-bubble.tsx';
import { SettingsPanel } from './components/settings-panel.tsx';
import { defaultSettings, type PlaygroundSettings } from './lib/chat-types.ts';
import { useChat } from './lib/use-chat.ts';

/** `/playground`: chat with any model through the gateway, billed like any request. */
export default function PlaygroundPage() {
  const { t } = useTranslation('playground');
  const [settings, setSettings] = useState<PlaygroundSettings>(defaultSettings);
  const chat = useChat(settings);
  const bottom = useRef<HTMLDivElement>(null);
  const lastContent = chat.messages.at(-1)?.content;

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.messages.length, lastContent]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8} lg={6}>
        <SettingsPanel value={settings} onChange={setSettings} />
      </Col>
      <Col xs={24} md={16} lg={18}>
        <Card title={t('title')} styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12 } }}>
          <Flex vertical gap={12} style={{ minHeight: 320, maxHeight: 'calc(100vh - 320px)', overflowY: 'auto' }} data-testid="chat-messages">
            {chat.messages.length === 0 ? (
              <Empty description={t('empty')} style={{ margin: 'auto' }} />
            ) : (
              chat.messages.map((message) => <MessageBubble key={message.id} message={message} />)
            )}
            <div ref={bottom} />
          </Flex>
          <Composer busy={chat.busy} onSend={(text) => void chat.send(text)} onStop={chat.stop} onClear={chat.clear} />
        </Card>
      </Col>
    </Row>
  );
}
