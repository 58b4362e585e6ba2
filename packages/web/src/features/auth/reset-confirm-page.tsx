import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { copyText } from '../../lib/copy-text.ts';
import { confirmPasswordReset } from './api/confirm-password-reset.ts';
import { AuthCard } from './components/auth-card.tsx';

/** /user/reset?email&token (the link from the e-mail): confirms and shows the generated password. */
export default function ResetConfirmPage() {
  const { t } = useTranslation('auth');
  const [search] = useSearchParams();
  const { message } = App.useApp();
  const email = search.get('email') ?? '';
  const token = search.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [newPassword, setNewPassword] = useState('');

  const copy = async (password: string) => {
    if (await copyText(password)) void message.success(t('resetConfirm.copied'));
    else void message.warning(t('resetConfirm.copyManually'));
  };

  const confirm = async () => {
    setBusy(true);
    try {
      const password = await confirmPasswordReset(email, token);
      setNewPassword(password);
      await copy(password);
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  if (!email || !token) {
    return (
      <AuthCard title={t('resetConfirm.title')}>
        <Alert type="error" showIcon title={t('resetConfirm.invalidLink')} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('resetConfirm.title')}>
      <Descriptions column={1} items={[{ key: 'email', label: t('register.email'), children: email }]} style={{ marginBottom: 16 }} />
      {newPassword ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="success" showIcon title={t('resetConfirm.done')} />
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={newPassword} data-testid="new-password" />
            <Button icon={<CopyOutlined />} onClick={() => void copy(newPassword)} aria-label={t('resetConfirm.copy')} />
          </Space.Compact>
          <Link to="/login">
            <Button type="primary" block>
              {t('reset.backToLogin')}
            </Button>
          </Link>
        </Space>
      ) : (
        <Button type="primary" block loading={busy} onClick={() => void confirm()}>
          {t('resetConfirm.submit')}
        </Button>
      )}
    </AuthCard>
  );
}
