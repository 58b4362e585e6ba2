import type { UserView } from '@switchboard/contracts';
import { UserStatus } from '@switchboard/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Deregistered (DeletedAt set) wins over the status column: such rows are shown red and frozen. */
export function UserStatusTag({ user }: { user: Pick<UserView, 'status' | 'DeletedAt'> }) {
  const { t } = useTranslation('users');
  if (user.DeletedAt) return <Tag color="red">{t('status.deregistered')}</Tag>;
  if (user.status === UserStatus.enabled) return <Tag color="green">{t('status.enabled')}</Tag>;
  if (user.status === UserStatus.disabled) return <Tag color="volcano">{t('status.disabled')}</Tag>;
  return <Tag>{t('status.unknown', { status: user.status })}</Tag>;
}
