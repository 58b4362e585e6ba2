import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { storeUser, type StoredUser } from '../../../lib/stored-user.ts';

/** The classic console's default credentials of the first administrator. */
const defaultRootUsername = 'root';
const defaultRootPassword = '123456';

export function isDefaultRootLogin(username: string, password: string): boolean {
  return username === defaultRootUsername && password === defaultRootPassword;
}

/**
 * What every successful login does: remember the user, say 'login successful', go on (to /token after
 * a password login, to / otherwise) and, for root still on the default password, insist on a change.
 */
export function useCompleteLogin() {
  const { t } = useTranslation('auth');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return (user: StoredUser, options: { to: string; defaultPassword?: boolean }) => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
    storeUser(user);
    void message.success(t('login.success'));
    void navigate(options.to);
    if (options.defaultPassword) {
      modal.confirm({
        title: t('defaultPassword.title'),
        content: t('defaultPassword.content'),
        okText: t('defaultPassword.change'),
        cancelText: t('defaultPassword.later'),
        onOk: () => void navigate('/setting?tab=personal'),
      });
    }
  };
}
