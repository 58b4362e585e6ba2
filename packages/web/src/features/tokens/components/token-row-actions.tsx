import { TokenStatus, type TokenView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { deleteToken } from '../api/delete-token.ts';
import { setTokenStatus } from '../api/set-token-status.ts';
import { useRevealKey } from '../lib/use-reveal-key.ts';
import { TokenChatButton } from './token-chat-button.tsx';
import { RowActionsBar } from '../../../components/row-actions-bar.tsx';

interface TokenRowActionsProps {
  token: TokenView;
  onCopy: (text: string) => void;
  /** Shows the full key in the key dialog. */
  onShowKey: (token: TokenView, key: string) => void;
  onEdit: (token: TokenView) => void;
  onChanged: () => void;
}

/** View key, copy, chat, enable or disable, edit, and the destructive delete last. */
export function TokenRowActions({ token, onCopy, onShowKey, onEdit, onChanged }: TokenRowActionsProps) {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const onError = (error: Error) => void message.error(error.message);
  const revealKey = useRevealKey();
  const withKey = (use: (key: string) => void) => {
    revealKey(token).then(use, onError);
  };
  const toggle = useMutation({
    mutationFn: () => setTokenStatus(token.id, token.status === TokenStatus.enabled ? TokenStatus.disabled : TokenStatus.enabled),
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
    <RowActionsBar>
      <Button size="small" onClick={() => withKey((key) => onShowKey(token, key))}>
        {t('actions.viewKey')}
      </Button>
      <Button size="small" onClick={() => withKey(onCopy)}>
        {t('actions.copy')}
      </Button>
      <TokenChatButton token={token} />
      <Button size="small" loading={toggle.isPending} onClick={() => toggle.mutate()}>
        {token.status === TokenStatus.enabled ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Button size="small" onClick={() => onEdit(token)}>
        {t('actions.edit')}
      </Button>
      <Popconfirm title={t('confirmDelete', { name: token.name })} onConfirm={() => remove.mutate()} okButtonProps={{ danger: true }}>
        <Button size="small" danger loading={remove.isPending}>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
    </RowActionsBar>
  );
}
