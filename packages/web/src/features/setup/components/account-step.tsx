import { accountLimits } from '@switchboard/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

export interface AccountValues {
  username: string;
  password: string;
  confirmPassword: string;
}

/** Root's name (new-api allows up to 12 characters) and a new password in place of the first start's. */
export function AccountStep() {
  const { t } = useTranslation('setup');
  return (
    <>
      <Form.Item name="username" label={t('account.username')} rules={[{ required: true, max: accountLimits.usernameMax, message: t('account.usernameRule') }]}>
        <Input autoComplete="username" data-testid="setup-username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('account.password')}
        extra={t('account.passwordHelp')}
        rules={[{ required: true, min: accountLimits.passwordMin, message: t('account.passwordRule') }]}
      >
        <Input.Password maxLength={accountLimits.passwordMax} autoComplete="new-password" autoFocus data-testid="setup-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('account.confirmPassword')}
        dependencies={['password']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_rule, value) => (value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('account.mismatch')))),
          }),
        ]}
      >
        <Input.Password maxLength={accountLimits.passwordMax} autoComplete="new-password" data-testid="setup-confirm-password" />
      </Form.Item>
    </>
  );
}
