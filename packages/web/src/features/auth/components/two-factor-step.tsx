import { SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { twoFactorLogin } from '../api/two-factor-login.ts';
import { type TwoFactorLoginState, useCompleteLogin } from '../lib/use-complete-login.ts';

/** The login's second step: a code from the authenticator app, or one of the backup codes. */
export function TwoFactorStep({ pending, onCancel }: { pending: TwoFactorLoginState['twoFactor']; onCancel: () => void }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const completeLogin = useCompleteLogin();
  const [busy, setBusy] = useState(false);

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
      <Button type="link" block onClick={onCancel} style={{ marginTop: 8 }}>
        {t('twoFactor.back')}
      </Button>
    </Form>
  );
}
