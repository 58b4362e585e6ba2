import { KeyOutlined, SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { passkeyLogin } from '../api/passkey-login.ts';
import { twoFactorLogin } from '../api/two-factor-login.ts';
import { type TwoFactorLoginState, useCompleteLogin } from '../lib/use-complete-login.ts';

/** The login's second step: a code from the authenticator app, one of the backup codes, or a passkey. */
export function TwoFactorStep({ pending, onCancel }: { pending: TwoFactorLoginState['twoFactor']; onCancel: () => void }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const completeLogin = useCompleteLogin();
  const [busy, setBusy] = useState(false);
  const methods = pending.methods ?? ['totp'];

  const signInWithPasskey = async () => {
    setBusy(true);
    try {
      completeLogin(await passkeyLogin(pending.flowToken), { to: pending.to, defaultPassword: pending.defaultPassword });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : t('passkey.failed'));
    } finally {
      setBusy(false);
    }
  };

  const submit = async ({ code }: { code?: string }) => {
    const trimmed = (code ?? '').trim();
    if (!trimmed) {
      void message.error(t('twoFactor.required'));
      return;
    }
    setBusy(true);
    try {
      const user = await twoFactorLogin(trimmed, pending.flowToken);
      completeLogin(user, { to: pending.to, defaultPassword: pending.defaultPassword });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  const passkeyButton = methods.includes('passkey') && (
    <Button block icon={<KeyOutlined />} loading={busy} onClick={() => void signInWithPasskey()} style={{ marginTop: 8 }} data-testid="two-factor-passkey">
      {t('passkey.useForSecondFactor')}
    </Button>
  );
  if (!methods.includes('totp')) {
    return (
      <div data-testid="two-factor-step">
        <Typography.Paragraph type="secondary">{t('passkey.secondFactorHint')}</Typography.Paragraph>
        {passkeyButton}
        <Button type="link" block onClick={onCancel} style={{ marginTop: 8 }}>
          {t('twoFactor.back')}
        </Button>
      </div>
    );
  }

  return (
    <Form<{ code: string }> layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false} data-testid="two-factor-step">
      <Typography.Paragraph type="secondary">{t('twoFactor.hint')}</Typography.Paragraph>
      <Form.Item name="code" label={t('twoFactor.code')}>
        <Input
          prefix={<SafetyOutlined />}
          placeholder={t('twoFactor.placeholder')}
          autoComplete="one-time-code"
          autoFocus
          maxLength={16}
          data-testid="two-factor-code"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="two-factor-submit">
        {t('twoFactor.submit')}
      </Button>
      {passkeyButton}
      <Button type="link" block onClick={onCancel} style={{ marginTop: 8 }}>
        {t('twoFactor.back')}
      </Button>
    </Form>
  );
}
