import { LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SendCodeButton } from '../../components/send-code-button.tsx';
import { TurnstileWidget } from '../../components/turnstile-widget.tsx';
import { rememberAffiliateCode, storedAffiliateCode } from '../../lib/affiliate-code.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useStatusValue } from '../../lib/system-status.ts';
import { register } from './api/register.ts';
import { sendVerificationCode } from './api/send-verification-code.ts';
import { AuthCard } from './components/auth-card.tsx';
import { LegalConsent } from './components/legal-consent.tsx';
import { OAuthOptions } from './components/oauth-options.tsx';
import { useCompleteLogin } from './lib/use-complete-login.ts';
import { useTurnstileToken } from './lib/use-turnstile-token.ts';

interface RegisterValues {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
  agreed_to_terms?: boolean;
}

const usernameMaxLength = 12;
const passwordMinLength = 8;
const passwordMaxLength = 20;

/** /register: username and password, plus e-mail and code when verification is on, and consent when legal documents are published. */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const status = useStatusValue();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<RegisterValues>();
  const turnstile = useTurnstileToken();
  const completeLogin = useCompleteLogin();
  const [busy, setBusy] = useState(false);
  const emailVerification = status?.email_verification ?? false;
  const userAgreement = status?.user_agreement_enabled ?? false;
  const privacyPolicy = status?.privacy_policy_enabled ?? false;
  const askConsent = userAgreement || privacyPolicy;

  useEffect(() => rememberAffiliateCode(search), [search]);

  const showError = (error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error));

  const sendCode = async (): Promise<boolean> => {
    const email = (form.getFieldValue('email') as string | undefined)?.trim() ?? '';
    if (!email) {
      void message.error(t('register.emailRequired'));
      return false;
    }
    if (!turnstile.ready()) return false;
    try {
      await sendVerificationCode(email, turnstile.token);
      void message.success(t('register.codeSent'));
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
  };

  const submit = async (values: RegisterValues) => {
    if (!turnstile.ready()) return;
    setBusy(true);
    try {
      await register(
        {
          username: values.username.trim(),
          password: values.password,
          password2: values.password2,
          ...(emailVerification ? { email: values.email?.trim(), verification_code: values.verification_code?.trim() } : {}),
          aff_code: storedAffiliateCode() || undefined,
          ...(askConsent ? { agreed_to_terms: values.agreed_to_terms === true } : {}),
        },
        turnstile.token,
      );
      void message.success(t('register.success'));
      void navigate('/login');
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  if (status && (!status.register_enabled || !status.password_register_enabled)) {
    return (
      <AuthCard title={t('register.title')}>
        <Typography.Paragraph type="secondary">{t(status.register_enabled ? 'register.passwordDisabled' : 'register.disabled')}</Typography.Paragraph>
        <OAuthOptions onLoggedIn={(user) => completeLogin(user, { to: '/' })} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('register.title')}>
      <Form<RegisterValues> form={form} name="register" layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false}>
        <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('register.usernameRequired') }]}>
          <Input
            prefix={<UserOutlined />}
            maxLength={usernameMaxLength}
            placeholder={t('register.usernamePlaceholder', { max: usernameMaxLength })}
            autoComplete="username"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[
            { required: true, message: t('register.passwordRequired') },
            { min: passwordMinLength, message: t('register.passwordTooShort') },
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            maxLength={passwordMaxLength}
            placeholder={t('register.passwordPlaceholder', { min: passwordMinLength, max: passwordMaxLength })}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item
          name="password2"
          label={t('register.confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('register.passwordRequired') },
            ({ getFieldValue }) => ({
              validator: (_rule, value) =>
                value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('register.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} maxLength={passwordMaxLength} autoComplete="new-password" />
        </Form.Item>
        {emailVerification && (
          <>
            <Form.Item label={t('register.email')} required htmlFor="register_email">
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item
                  name="email"
                  noStyle
                  rules={[
                    { required: true, whitespace: true, message: t('register.emailRequired') },
                    { type: 'email', message: t('register.emailInvalid') },
                  ]}
                >
                  <Input prefix={<MailOutlined />} type="email" autoComplete="email" />
                </Form.Item>
                <SendCodeButton onSend={sendCode} />
              </Space.Compact>
            </Form.Item>
            <Form.Item name="verification_code" label={t('register.code')} rules={[{ required: true, whitespace: true, message: t('register.codeRequired') }]}>
              <Input autoComplete="one-time-code" />
            </Form.Item>
          </>
        )}
        {askConsent && <LegalConsent userAgreement={userAgreement} privacyPolicy={privacyPolicy} />}
        {turnstile.enabled && (
          <Form.Item>
            <TurnstileWidget siteKey={turnstile.siteKey} onToken={turnstile.setToken} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('register.submit')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
      </Typography.Paragraph>
      <OAuthOptions onLoggedIn={(user) => completeLogin(user, { to: '/' })} />
    </AuthCard>
  );
}
