import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Role } from '@switchboard/contracts';
import { getSetupState } from '../../../lib/setup-state.ts';
import { storeUser } from '../../../lib/stored-user.ts';
import { isTwoFactorChallenge, type LoginAnswer } from './login-answer.ts';

/** The classic console's default credentials of the first administrator. */
const defaultRootUsername = 'root';
const defaultRootPassword = '123456';

export function isDefaultRootLogin(username: string, password: string): boolean {
  return username === defaultRootUsername && password === defaultRootPassword;
}

/** Router state handing a pending second-factor login to the login page. */
export interface TwoFactorLoginState {
  twoFactor: { flowToken: string; to: string; defaultPassword: boolean; methods: Array<'totp' | 'passkey'> };
}

/**
 * What every successful login does (a challenge for the second factor first goes to the login page's
 * code step, from any login method): remember the user, say 'login successful', go on (to /token after
 * a password login, to / otherwise) and, for root still on the default password, insist on a change.
 */
export function useCompleteLogin() {
  const { t } = useTranslation('auth');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return (user: LoginAnswer, options: { to: string; defaultPassword?: boolean }) => {
    if (isTwoFactorChallenge(user)) {
      const state: TwoFactorLoginState = {
        twoFactor: { flowToken: user.flow_token, to: options.to, defaultPassword: options.defaultPassword ?? false, methods: user.methods ?? ['totp'] },
      };
      void navigate('/login', { state });
      return;
    }
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
    storeUser(user);
    void message.success(t('login.success'));
    // `TwoFactorRequiredForAdmins`: an administrator without a second factor enrols before anything else.
    if (user.require_second_factor_enrolment) {
      void navigate('/setting?tab=personal');
      modal.warning({ title: t('enrolment.title'), content: t('enrolment.content') });
      return;
    }
    void goOn(user.role, options);
  };

  /** Root on a database not yet set up goes to the first-run setup (which sets a new password); anyone else where they were going. */
  async function goOn(role: number, options: { to: string; defaultPassword?: boolean }) {
    const setup = role === Role.root ? await getSetupState().catch(() => undefined) : undefined;
    if (setup && !setup.status) {
      void navigate('/setup');
      return;
    }
    void navigate(options.to);
    if (options.defaultPassword) {
      modal.confirm({
        title: t('defaultPassword.title'),
        content: t('defaultPassword.content'),
        okText: t('defaultPassword.change'),
        cancelText: t('defaultPassword.later'),
        onOk: () => void navigate('/setting?tab=personal&dialog=password'),
      });
    }
  }
}
