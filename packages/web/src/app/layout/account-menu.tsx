import { LogoutOutlined, SettingOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Dropdown, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';
import { useStatusValue } from '../../lib/system-status.ts';
import { useStoredUser } from '../../lib/use-stored-user.ts';

/** Login/register links for a visitor; for a user, an avatar with the first letter and a logout item. */
export function AccountMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const status = useStatusValue();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  if (!user) {
    const canRegister = status?.register_enabled ?? true;
    return (
      <Space size={4}>
        <Link to="/login">
          <Button type="text">{t('nav.login')}</Button>
        </Link>
        {canRegister && !compact && (
          <Link to="/register">
            <Button type="primary">{t('nav.register')}</Button>
          </Link>
        )}
      </Space>
    );
  }

  const logout = async () => {
    try {
      await api.get('/api/user/logout');
    } catch {
      // The session may already be gone; logging out locally is still what the user asked for.
    }
    clearStoredUser();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
    void message.success(t('nav.logoutSuccess'));
    void navigate('/login');
  };

  const name = user.display_name || user.username;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'setting', icon: <SettingOutlined />, label: t('menu.setting'), onClick: () => void navigate('/setting') },
          { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout'), onClick: () => void logout() },
        ],
      }}
    >
      <Button type="text" data-testid="account-menu" style={{ paddingInline: 4 }}>
        <Space size={6}>
          <Avatar size="small" style={{ backgroundColor: '#1677ff' }}>
            {user.username.slice(0, 1).toUpperCase()}
          </Avatar>
          {!compact && <span>{name}</span>}
        </Space>
      </Button>
    </Dropdown>
  );
}
