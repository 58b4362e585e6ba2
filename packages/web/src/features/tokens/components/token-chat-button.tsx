import type { TokenView } from '@switchboard/contracts';
import { App, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';
import { chatLinksOf, fillChatLink } from '../../../lib/chat-links.ts';
import { keyRecipientToConfirm } from '../../../lib/chat-link-trust.ts';
import { useConfirmKeyLeaving } from '../../../components/key-leaving-confirm.tsx';
import { fullKey } from '../lib/full-key.ts';
import { isMaskedKey, useRevealKey } from '../lib/use-reveal-key.ts';

/** Opens a configured chat front end with this key and the server address filled in. */
export function TokenChatButton({ token }: { token: TokenView }) {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const status = useStatusValue();
  const links = chatLinksOf(status);
  const serverAddress = status?.server_address || window.location.origin;
  const revealKey = useRevealKey();
  const confirmKeyLeaving = useConfirmKeyLeaving();

  /** Opens the filled link, first asking when it would hand the key to another site. */
  async function openFilled(template: string, key: string) {
    const url = fillChatLink(template, key, serverAddress);
    const host = keyRecipientToConfirm(template, url);
    if (host && !(await confirmKeyLeaving(host))) return;
    window.open(url, '_blank', 'noopener');
  }

  function open(template: string) {
    const key = isMaskedKey(token) ? revealKey(token) : Promise.resolve(fullKey(token));
    key.then(
      (revealed) => openFilled(template, revealed),
      (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)),
    );
  }

  if (links === 'invalid' || links.length === 0) {
    return (
      <Button size="small" onClick={() => void message.error(links === 'invalid' ? t('messages.chatLinkInvalid') : t('messages.noChatLink'))}>
        {t('actions.chat')}
      </Button>
    );
  }
  const [first, ...others] = links;
  if (!first || others.length === 0) {
    return (
      <Button size="small" onClick={() => first && open(first.url)}>
        {t('actions.chat')}
      </Button>
    );
  }
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items: links.map((link, index) => ({ key: String(index), label: link.name })), onClick: ({ key }) => open(links[Number(key)]?.url ?? first.url) }}
    >
      <Button size="small">{t('actions.chat')}</Button>
    </Dropdown>
  );
}
