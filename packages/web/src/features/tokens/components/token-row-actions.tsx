import type { TokenView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteToken } from '../api/delete-token.ts';
import { setTokenStatus } from '../api/set-token-status.ts';
import { useRevealKey } from '../lib/use-reveal-key.ts';
import { TokenChatButton } from './token-chat-button.tsx';

interface TokenRowActionsProps {
  token: TokenView;
  onCopy: (text: string) => void;
  onEdit: (token: TokenView) => void;
  onChanged: () => void;
}

/** View key, copy, chat, delete, enable or disable, edit. */
export function TokenRowActions({ token, onCopy, onEdit, onChanged }: TokenRowActionsProps) {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const [shownKey, setShownKey] = useState('');
  const onError = (error: Error) => void message.error(error.message);
  const revealKey = useRevealKey();
  const withKey = (use: (key: string) => void) => {
    revealKey(token).then(use, onError);
  };
  const toggle = useMutation({
    mutationFn: () => setTokenStatus(token.id, token.status === 1 ? 2 : 1),
    onSuccess: () => {
      void message.success(t('messages.operationDone'));
      onChanged();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteToken(token.id),
    onSuccess: () => {
      void message.success(t('messages.deleted'));
      onChanged();
    },
    onError,
  });

  return (
    <Flex vertical gap={4}>
      <Flex gap={4} wrap>
        <Button size="small" onClick={() => (shownKey ? setShownKey('') : withKey(setShownKey))}>
          {shownKey ? t('actions.hideKey') : t('actions.viewKey')}
        </Button>
        <Button size="small" onClick={() => withKey(onCopy)}>
          {t('actions.copy')}
        </Button>
        <TokenChatButton token={token} />
        <Popconfirm title={t('confirmDelete', { name: token.name })} onConfirm={() => remove.mutate()} okButtonProps={{ danger: true }}>
          <Button size="small" danger loading={remove.isPending}>
            {t('actions.delete')}
          </Button>
        </Popconfirm>
        <Button size="small" loading={toggle.isPending} onClick={() => toggle.mutate()}>
          {token.status === 1 ? t('actions.disable') : t('actions.enable')}
        </Button>
        <Button size="small" onClick={() => onEdit(token)}>
          {t('actions.edit')}
        </Button>
      </Flex>
      {shownKey && (
        <Typography.Text code copyable={{ text: shownKey }} style={{ wordBreak: 'break-all' }}>
          {shownKey}
        </Typography.Text>
      )}
    </Flex>
  );
}
