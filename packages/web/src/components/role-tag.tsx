import { Role } from '@switchboard/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Ordinary user, administrator or super administrator, as the user table and personal page show it. */
export function RoleTag({ role }: { role: number }) {
  const { t } = useTranslation();
  if (role >= Role.root) return <Tag color="orange">{t('role.root')}</Tag>;
  if (role >= Role.admin) return <Tag color="gold">{t('role.admin')}</Tag>;
  return <Tag color="blue">{t('role.common')}</Tag>;
}
