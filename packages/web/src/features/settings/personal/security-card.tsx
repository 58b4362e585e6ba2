import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Input, Modal, Typography, type InputRef } from 'antd';
import { accountLimits } from '@switchboard/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useFocusOnOpen } from '../../../components/use-focus-on-open.ts';
import { copyText } from '../../../lib/copy-text.ts';
import { clearStoredUser } from '../../../lib/stored-user.ts';
import { changeOwnPassword } from '../api/change-own-password.ts';
import { deleteOwnAccount } from '../api/delete-own-account.ts';
import { regenerateAccessToken } from '../api/regenerate-access-token.ts';
import { useSecondFactorCheck } from '../lib/use-second-factor-check.tsx';

/** Profile editing (/user/edit), system access token, password change and account deletion (typed-username check). */
export function SecurityCard({ username }: { username: string }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // `?dialog=password` (the default-password warning's "Change now") opens the password change at once.
  const [params] = useSearchParams();
  const [dialog, setDialog] = useState<'password' | 'delete' | undefined>(params.get('dialog') === 'password' ? 'password' : undefined);
  const [accessToken, setAccessToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [currentPasswordRef, focusCurrentPassword] = useFocusOnOpen<InputRef>();
  const [passwordForm] = Form.useForm<{ original: string; password: string; password2: string }>();
  const [typedName, setTypedName] = useState('');
  // With a second factor set, the server asks for a fresh check (a code or a passkey) before these actions.
  const secondFactor = useSecondFactorCheck();

  const generateToken = () =>
    secondFactor.guard(async () => {
      const token = await regenerateAccessToken();
      setAccessToken(token);
      if (await copyText(token)) void message.success(t('security.tokenCopied'));
      else void message.warning(t('actions.copyFailed', { ns: 'common' }));
    });

  const changePassword = async () => {
    const values = await passwordForm.validateFields().catch(() => undefined);
    if (!values) return;
    setBusy(true);
    await secondFactor.guard(async () => {
      await changeOwnPassword(values.password, values.original ?? '');
      void message.success(t('security.passwordChanged'));
      passwordForm.resetFields();
      setDialog(undefined);
    });
    setBusy(false);
  };

  const deleteAccount = async () => {
    if (typedName !== username) {
      void message.error(t('security.typeUsername'));
      return;
    }
    setBusy(true);
    await secondFactor.guard(async () => {
      await deleteOwnAccount();
      void message.success(t('security.deleted'));
      clearStoredUser();
      queryClient.clear();
      void navigate('/login');
    });
    setBusy(false);
  };

  return (
    <Card size="small" title={t('security.title')} style={{ marginBottom: 16 }} data-testid="personal-security">
      <Flex gap={8} wrap>
        <Link to="/user/edit">
          <Button data-testid="edit-profile">{t('security.editProfile')}</Button>
        </Link>
        <Button onClick={() => void generateToken()} data-testid="generate-access-token">
          {t('security.generateToken')}
        </Button>
        <Button onClick={() => setDialog('password')} data-testid="open-change-password">
          {t('security.changePassword')}
        </Button>
        <Button danger onClick={() => setDialog('delete')} data-testid="open-delete-account">
          {t('security.deleteAccount')}
        </Button>
      </Flex>
      {accessToken && (
        <Typography.Paragraph copyable={{ text: accessToken }} style={{ marginTop: 12, marginBottom: 0 }} data-testid="access-token">
          <Typography.Text code>{accessToken}</Typography.Text>
        </Typography.Paragraph>
      )}
      <Modal
        open={dialog === 'password'}
        title={t('security.changePassword')}
        onCancel={() => setDialog(undefined)}
        onOk={() => void changePassword()}
        confirmLoading={busy}
        destroyOnHidden
        afterOpenChange={focusCurrentPassword}
      >
        <Form form={passwordForm} layout="vertical" preserve={false}>
          <Form.Item name="original" label={t('security.currentPassword')} extra={t('security.currentPasswordHelp')}>
            <Input.Password maxLength={accountLimits.passwordMax} autoComplete="current-password" ref={currentPasswordRef} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('security.newPassword')}
            rules={[
              { required: true, message: t('security.passwordRequired') },
              { min: accountLimits.passwordMin, message: t('security.passwordTooShort') },
            ]}
          >
            <Input.Password maxLength={accountLimits.passwordMax} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="password2"
            label={t('security.confirmPassword')}
            dependencies={['password']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('security.passwordMismatch'))),
              }),
            ]}
          >
            <Input.Password maxLength={accountLimits.passwordMax} autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
      {secondFactor.modal}
      <Modal
        open={dialog === 'delete'}
        title={t('security.deleteAccount')}
        onCancel={() => setDialog(undefined)}
        onOk={() => void deleteAccount()}
        okButtonProps={{ danger: true }}
        confirmLoading={busy}
        destroyOnHidden
      >
        <Typography.Paragraph type="danger">{t('security.deleteWarning')}</Typography.Paragraph>
        <Input
          value={typedName}
          onChange={(event) => setTypedName(event.target.value)}
          placeholder={t('security.typeUsernamePlaceholder', { username })}
          aria-label={t('security.typeUsernamePlaceholder', { username })}
          data-testid="delete-confirm-name"
        />
      </Modal>
    </Card>
  );
}
