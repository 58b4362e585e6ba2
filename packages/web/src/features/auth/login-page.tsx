import { KeyOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { TurnstileWidget } from '../../components/turnstile-widget.tsx';
import { rememberAffiliateCode } from '../../lib/affiliate-code.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useStatusValue } from '../../lib/system-status.ts';
import { login, type LoginInput } from './api/login.ts';
import { passkeyLogin } from './api/passkey-login.ts';
import { AuthCard } from './components/auth-card.tsx';
import { OAuthOptions } from './components/oauth-options.tsx';
import { TwoFactorStep } from './components/two-factor-step.tsx';
import { isDefaultRootLogin, type TwoFactorLoginState, useCompleteLogin } from './lib/use-complete-login.ts';
import { useTurnstileToken } from './lib/use-turnstile-token.ts';

/** /login: password login plus the enabled third-party logins; then the code step when a second factor is set. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const status = useStatusValue();
  const [search] = useSearchParams();
  const { message } = App.useApp();
  const completeLogin = useCompleteLogin();
  const turnstile = useTurnstileToken();
  const [busy, setBusy] = useState(false);
  const expired = search.get('expired') === 'true';
  const location = useLocation();
  const navigate = useNavigate();
  const pendingSecondFactor = (location.state as Partial<TwoFactorLoginState> | null)?.twoFactor;
  const [passkeyBusy, setPasskeyBusy] = useState(false);

  useEffect(() => rememberAffiliateCode(search), [search]);

  const submit = async (values: Partial<LoginInput>) => {
    const input = { username: (values.username ?? '').trim(), password: values.password ?? '' };
    if (!input.username || !input.password) {
      void message.error(t('login.required'));
      return;
    }
    if (!turnstile.ready()) return;
    setBusy(true);
    try {
      const user = await login(input, turnstile.token);
      completeLogin(user, { to: '/token', defaultPassword: isDefaultRootLogin(input.username, input.password) });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'turnstile_required' && turnstile.siteKey) {
        turnstile.demand();
        void message.warning(t('login.humanCheck'));
        return;
      }
      void message.error(error instanceof ApiError ? error.message : String(error));
      if (turnstile.enabled) turnstile.renew();
    } finally {
      setBusy(false);
    }
  };

  // Password-less: the browser offers the passkeys it holds for this site; a passkey is a whole login.
  const signInWithPasskey = async () => {
    setPasskeyBusy(true);
    try {
      completeLogin(await passkeyLogin(), { to: '/token' });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : t('passkey.failed'));
    } finally {
      setPasskeyBusy(false);
    }
  };

  if (pendingSecondFactor) {
    return (
      <AuthCard title={t('twoFactor.title')}>
        <TwoFactorStep pending={pendingSecondFactor} onCancel={() => void navigate('/login', { replace: true, state: null })} />
      </AuthCard>
    );
  }

  const passwordLogin = status?.password_login_enabled ?? true;
  const canRegister = status?.register_enabled ?? true;
  return (
    <AuthCard title={t('login.title')}>
      {expired && <Alert type="warning" showIcon title={t('login.expired')} style={{ marginBottom: 16 }} data-testid="expired-alert" />}
      {passwordLogin ? (
        <Form<LoginInput> layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')}>
            <Input prefix={<UserOutlined />} placeholder={t('login.usernamePlaceholder')} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')}>
            <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="current-password" />
          </Form.Item>
          {turnstile.enabled && (
            <Form.Item>
              <TurnstileWidget key={turnstile.widgetKey} siteKey={turnstile.siteKey} onToken={turnstile.setToken} />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
      ) : (
        <Alert type="info" showIcon title={t('login.passwordDisabled')} />
      )}
      {status?.passkey_login && (
        <Button
          block
          icon={<KeyOutlined />}
          loading={passkeyBusy}
          onClick={() => void signInWithPasskey()}
          style={{ marginTop: 8 }}
          data-testid="passkey-login"
        >
          {t('passkey.signIn')}
        </Button>
      )}
      <Flex justify="space-between" wrap gap={8} style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">
          {t('login.forgot')} <Link to="/reset">{t('login.resetLink')}</Link>
        </Typography.Text>
        {canRegister && (
          <Typography.Text type="secondary">
            {t('login.noAccount')} <Link to="/register">{t('login.registerLink')}</Link>
          </Typography.Text>
        )}
      </Flex>
      <OAuthOptions onLoggedIn={(user) => completeLogin(user, { to: '/' })} />
    </AuthCard>
  );
}
