import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { UserBudgetSection } from './user-budget-section.tsx';
import { UserEditForm } from './user-edit-form.tsx';
import { UserSecondFactorSection } from './user-second-factor-section.tsx';

interface UserEditDrawerProps {
  userId: number | 'self' | undefined;
  administrative: boolean;
  onClose: () => void;
}

export function UserEditDrawer({ userId, administrative, onClose }: UserEditDrawerProps) {
  const { t } = useTranslation('users');
  return (
    <Drawer title={t('edit.title')} open={userId !== undefined} onClose={onClose} size={480} destroyOnHidden>
      {userId !== undefined && <UserEditForm userId={userId} administrative={administrative} onSaved={onClose} onCancel={onClose} />}
      {administrative && typeof userId === 'number' && <UserBudgetSection userId={userId} />}
      {administrative && typeof userId === 'number' && <UserSecondFactorSection userId={userId} />}
    </Drawer>
  );
}
