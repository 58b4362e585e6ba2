import { Button, Flex, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The input: Enter sends, Shift+Enter breaks the line; stop while an answer streams. */
export function Composer({ busy, onSend, onStop, onClear }: { busy: boolean; onSend: (text: string) => void; onStop: () => void; onClear: () => void }) {
  const { t } = useTranslation('playground');
  const [text, setText] = useState('');
  const send = () => {
    const trimmed = text.trim();
    if (!trimmed || busy) return;
    onSend(trimmed);
    setText('');
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
        placeholder={t('composer.placeholder')}
        aria-label={t('composer.placeholder')}
        autoSize={{ minRows: 2, maxRows: 8 }}
      />
      <Flex gap={8} justify="flex-end">
        <Button onClick={onClear}>{t('composer.clear')}</Button>
        {busy ? (
          <Button danger onClick={onStop}>
            {t('composer.stop')}
          </Button>
        ) : (
          <Button type="primary" onClick={send} disabled={!text.trim()}>
            {t('composer.send')}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
