import type { ManageAction, UserView } from '@switchboard/contracts';
import { Role, UserStatus } from '@switchboard/contracts';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { RowActionsBar } from '../../../components/row-actions-bar.tsx';

interface UserRowActionsProps {
  user: UserView;
  busy: boolean;
  onManage: (user: UserView, action: ManageAction) => void;
  onEdit: (user: UserView) => void;
}

/**
 * Promote, demote, disable/enable, edit, deregister. The super administrator cannot be demoted,
 * disabled or deregistered, status 3 cannot be enabled, deregistered rows get no actions at all; the
 * server enforces the rest (who may act on whom) and its message is shown when it refuses.
 */
export function UserRowActions({ user, busy, onManage, onEdit }: UserRowActionsProps) {
  const { t } = useTranslation('users');
  if (user.DeletedAt) return null;
  const isRootUser = user.role >= Role.root;
  const enabled = user.status === UserStatus.enabled;

  return (
    <RowActionsBar>
      {user.role < Role.admin ? (
        <Button size="small" disabled={busy} onClick={() => onManage(user, 'promote')}>
          {t('actions.promote')}
        </Button>
      ) : (
        <Button size="small" disabled={busy || isRootUser} onClick={() => onManage(user, 'demote')}>
          {t('actions.demote')}
        </Button>
      )}
      {enabled ? (
        <Button size="small" danger disabled={busy || isRootUser} onClick={() => onManage(user, 'disable')}>
          {t('actions.disable')}
        </Button>
      ) : (
        <Button size="small" disabled={busy || user.status === UserStatus.locked} onClick={() => onManage(user, 'enable')}>
          {t('actions.enable')}
        </Button>
      )}
      <Button size="small" type="primary" ghost disabled={busy} onClick={() => onEdit(user)}>
        {t('actions.edit', { ns: 'common' })}
      </Button>
      <Popconfirm
        title={t('actions.deregisterConfirm', { username: user.username })}
        okText={t('actions.deregister')}
        okButtonProps={{ danger: true }}
        cancelText={t('actions.cancel', { ns: 'common' })}
        onConfirm={() => onManage(user, 'delete')}
        disabled={isRootUser}
      >
        <Button size="small" danger type="text" disabled={busy || isRootUser}>
          {t('actions.deregister')}
        </Button>
      </Popconfirm>
    </RowActionsBar>
  );
}
