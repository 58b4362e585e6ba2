import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useStoredUser } from '../../lib/use-stored-user.ts';
import { UserEditForm } from './components/user-edit-form.tsx';

/** /user/edit/{id} (administrators) and /user/edit (oneself). */
export default function UserEditPage() {
  const { t } = useTranslation('users');
  const { id } = useParams();
  const navigate = useNavigate();
  const actor = useStoredUser();
  const numericId = id ? Number(id) : undefined;
  const target = numericId && numericId !== actor?.id ? numericId : 'self';
  const back = () => void navigate(target === 'self' ? '/setting' : '/user');

  return (
    <Card title={t('edit.title')} style={{ maxWidth: 640, margin: '0 auto' }}>
      <UserEditForm userId={target} administrative={target !== 'self'} onSaved={back} onCancel={back} />
    </Card>
  );
}
