import { MailOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { sendCodeCooldownSeconds } from '../../components/send-code-button.tsx';
import { TurnstileWidget } from '../../components/turnstile-widget.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { requestPasswordReset } from './api/request-password-reset.ts';
import { AuthCard } from './components/auth-card.tsx';
import { useTurnstileToken } from './lib/use-turnstile-token.ts';

/** /reset: e-mails a reset link; the button waits 30 s before it can send again. */
export default function ResetRequestPage() {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const turnstile = useTurnstileToken();
  const [busy, setBusy] = useState(false);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);

  const submit = async ({ email }: { email: string }) => {
    if (!turnstile.ready()) return;
    setBusy(true);
    try {
      await requestPasswordReset(email.trim(), turnstile.token);
      void message.success(t('reset.sent'));
      setRemaining(sendCodeCooldownSeconds);
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('reset.title')}>
      <Form layout="vertical" onFinish={(values: { email: string }) => void submit(values)} requiredMark={false}>
        <Form.Item
          name="email"
          label={t('register.email')}
          rules={[
            { required: true, whitespace: true, message: t('register.emailRequired') },
            { type: 'email', message: t('register.emailInvalid') },
          ]}
        >
          <Input prefix={<MailOutlined />} type="email" autoComplete="email" autoFocus />
        </Form.Item>
        {turnstile.enabled && (
          <Form.Item>
            <TurnstileWidget siteKey={turnstile.siteKey} onToken={turnstile.setToken} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={remaining > 0}>
          {remaining > 0 ? t('reset.retryIn', { seconds: remaining }) : t('reset.submit')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">{t('reset.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
