import { App, Button, Checkbox, Flex, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trustKeyRecipient } from '../lib/chat-link-trust.ts';

/** The warning's text, shared by the dialog and the page: the host named, the risk said plainly. */
function KeyLeavingText({ host }: { host: string }) {
  const { t } = useTranslation('common');
  return <Typography.Paragraph data-testid="key-leaving-warning">{t('keyLeaving.body', { host })}</Typography.Paragraph>;
}

/**
 * Asks before a chat link sends the user's key to `host` (chat-link-trust.ts decides when); resolves
 * true to open. "Don't ask again" remembers the host in this browser.
 */
export function useConfirmKeyLeaving(): (host: string) => Promise<boolean> {
  const { t } = useTranslation('common');
  const { modal } = App.useApp();
  return (host) =>
    new Promise((resolve) => {
      let remember = false;
      modal.confirm({
        title: t('keyLeaving.title', { host }),
        content: (
          <>
            <KeyLeavingText host={host} />
            <Checkbox onChange={(event) => (remember = event.target.checked)}>{t('keyLeaving.dontAskAgain', { host })}</Checkbox>
          </>
        ),
        okText: t('keyLeaving.open'),
        cancelText: t('keyLeaving.cancel'),
        onOk: () => {
          if (remember) trustKeyRecipient(host);
          resolve(true);
        },
        onCancel: () => resolve(false),
      });
    });
}

/** The same question on a page that would open the link by itself (a chat frame, /chat2link). */
export function KeyLeavingGate({ host, onProceed }: { host: string; onProceed: () => void }) {
  const { t } = useTranslation('common');
  const [remember, setRemember] = useState(false);
  return (
    <Result
      status="warning"
      title={t('keyLeaving.title', { host })}
      subTitle={<KeyLeavingText host={host} />}
      extra={
        <Flex vertical align="center" gap={16}>
          <Checkbox checked={remember} onChange={(event) => setRemember(event.target.checked)}>
            {t('keyLeaving.dontAskAgain', { host })}
          </Checkbox>
          <Button
            type="primary"
            onClick={() => {
              if (remember) trustKeyRecipient(host);
              onProceed();
            }}
          >
            {t('keyLeaving.open')}
          </Button>
        </Flex>
      }
    />
  );
}
