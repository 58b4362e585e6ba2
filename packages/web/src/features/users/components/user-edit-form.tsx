import { accountLimits, type UserView } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Flex, Form, Input, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpeningRecord } from '../../../components/use-form-drawer.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { readStoredUser, storeUser } from '../../../lib/stored-user.ts';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { getUser } from '../api/get-user.ts';
import { useGroups } from '../api/list-groups.ts';
import { updateSelf } from '../api/update-self.ts';
import { updateUser } from '../api/update-user.ts';
import { QuotaAdjustModal } from './quota-adjust-modal.tsx';

interface EditValues {
  username: string;
  display_name: string;
  password?: string;
  /** Editing oneself: the current password a new one needs (new-api's original_password). */
  original_password?: string;
  group?: string;
  remark?: string;
}

interface UserEditFormProps {
  /** 'self' edits the logged-in user through /api/user/self. */
  userId: number | 'self';
  /** Group, remark and quota appear only when an administrator edits someone else. */
  administrative: boolean;
  onSaved: () => void;
  onCancel: () => void;
}

function userToForm(user: UserView): EditValues {
  return { username: user.username, display_name: user.display_name, password: '', group: user.group, remark: user.remark };
}

function bindingRows(user: UserView, t: (key: string) => string) {
  const none = t('form.notBound');
  return [
    { key: 'email', label: t('form.email'), children: user.email || none },
    { key: 'github', label: 'GitHub', children: user.github_id || none },
    { key: 'wechat', label: t('form.wechat'), children: user.wechat_id || none },
    { key: 'telegram', label: 'Telegram', children: user.telegram_id || none },
    { key: 'linuxdo', label: 'LinuxDO', children: user.linux_do_id || none },
  ];
}

export function UserEditForm({ userId, administrative, onSaved, onCancel }: UserEditFormProps) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatQuota = useQuotaFormatter();
  const [form] = Form.useForm<EditValues>();
  // The form is mounted for each opening (drawer or page): that opening's own fresh answer fills it once.
  const user = useOpeningRecord({ open: true, id: userId, queryKey: ['users', 'detail'], fetch: getUser, form, toForm: userToForm });
  const groups = useGroups(administrative);
  const [quotaDelta, setQuotaDelta] = useState(0);
  const [adjusting, setAdjusting] = useState(false);
  const [busy, setBusy] = useState(false);

  const loaded = user.data;

  if (user.isLoading || !loaded)
    return user.isError ? <Alert type="error" showIcon title={t('loadFailed', { message: user.error.message })} /> : <Skeleton active />;

  const submit = async (values: EditValues) => {
    setBusy(true);
    try {
      const common = {
        username: values.username.trim(),
        display_name: (values.display_name ?? '').trim(),
        ...(values.password ? { password: values.password } : {}),
      };
      if (userId === 'self') {
        await updateSelf({ ...common, ...(values.password ? { original_password: values.original_password ?? '' } : {}) });
        // The top bar's avatar and name come from the stored copy; keep it in step with the rename.
        const stored = readStoredUser();
        if (stored) storeUser({ ...stored, username: common.username, display_name: common.display_name });
      } else
        await updateUser({
          id: loaded.id,
          ...common,
          ...(administrative ? { group: values.group, remark: values.remark ?? '', ...(quotaDelta ? { quota_delta: quotaDelta } : {}) } : {}),
        });
      void message.success(t('edit.saved'));
      setQuotaDelta(0);
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onSaved();
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} name="userEdit" layout="vertical" onFinish={(values) => void submit(values)} data-testid="user-edit-form">
      <Form.Item name="username" label={t('form.username')} rules={[{ required: true, whitespace: true, message: t('form.usernameRequired') }]}>
        <Input maxLength={accountLimits.usernameMax} autoComplete="off" />
      </Form.Item>
      <Form.Item name="display_name" label={t('form.displayName')}>
        <Input maxLength={accountLimits.displayNameMax} autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('form.password')} rules={[{ min: accountLimits.passwordMin, message: t('form.passwordTooShort') }]}>
        <Input.Password maxLength={accountLimits.passwordMax} placeholder={t('form.newPasswordPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      {userId === 'self' && (
        <Form.Item name="original_password" label={t('form.currentPassword')} extra={t('form.currentPasswordHelp')}>
          <Input.Password maxLength={accountLimits.passwordMax} autoComplete="current-password" />
        </Form.Item>
      )}
      {administrative && (
        <>
          <Form.Item name="group" label={t('form.group')}>
            <Select showSearch loading={groups.isLoading} options={(groups.data ?? []).map((group) => ({ value: group, label: group }))} />
          </Form.Item>
          <Form.Item label={t('form.quota')}>
            <Flex align="center" gap={8} wrap>
              <Typography.Text data-testid="edit-quota">
                {formatQuota(loaded.quota + quotaDelta)} ({loaded.quota + quotaDelta})
              </Typography.Text>
              {quotaDelta !== 0 && (
                <Typography.Text type="secondary">{t('quota.pending', { added: quotaDelta > 0 ? `+${quotaDelta}` : quotaDelta })}</Typography.Text>
              )}
              <Button size="small" onClick={() => setAdjusting(true)} data-testid="adjust-quota">
                {t('quota.open')}
              </Button>
            </Flex>
          </Form.Item>
          <Form.Item name="remark" label={t('form.remark')}>
            <Input maxLength={accountLimits.remarkMax} placeholder={t('form.remarkPlaceholder')} />
          </Form.Item>
        </>
      )}
      <Descriptions size="small" column={1} bordered title={t('form.bindings')} items={bindingRows(loaded, t)} style={{ marginBottom: 24 }} />
      <Space>
        <Button onClick={onCancel}>{t('actions.cancel', { ns: 'common' })}</Button>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="edit-user-submit">
          {t('actions.save', { ns: 'common' })}
        </Button>
      </Space>
      <QuotaAdjustModal
        open={adjusting}
        current={loaded.quota + quotaDelta}
        onCancel={() => setAdjusting(false)}
        onConfirm={(delta) => {
          setQuotaDelta((value) => value + delta);
          setAdjusting(false);
        }}
      />
    </Form>
  );
}
