import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useQueryClient } from '@tanstack/react-query';
import { passkeyNameMax, type PasskeyView } from '@switchboard/contracts';
import { Alert, App, Button, Card, Empty, Flex, Input, List, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../../../lib/date-time.ts';
import { useStatusValue } from '../../../lib/system-status.ts';
import { deletePasskey } from '../api/delete-passkey.ts';
import { passkeysKey, usePasskeys } from '../api/get-passkeys.ts';
import { twoFactorStatusKey } from '../api/get-two-factor-status.ts';
import { registerPasskey } from '../api/register-passkey.ts';
import { renamePasskey } from '../api/rename-passkey.ts';
import { useSecondFactorCheck } from '../lib/use-second-factor-check.tsx';

type Dialog = { kind: 'add' } | { kind: 'rename'; passkey: PasskeyView };

/** Passkeys: add several (named), rename, remove; a passkey logs in alone or as the second factor. */
export function PasskeysCard() {
  const { t } = useTranslation('settings');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const status = useStatusValue();
  const passkeys = usePasskeys();
  const secondFactor = useSecondFactorCheck();
  const [dialog, setDialog] = useState<Dialog>();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: passkeysKey }), queryClient.invalidateQueries({ queryKey: twoFactorStatusKey })]);
  const open = (next: Dialog | undefined) => {
    setName(next?.kind === 'rename' ? next.passkey.name : '');
    setDialog(next);
  };

  const save = async () => {
    const current = dialog;
    if (!current) return;
    setBusy(true);
    await secondFactor.guard(async () => {
      if (current.kind === 'add') {
        await registerPasskey(name.trim());
        void message.success(t('passkeys.added'));
      } else {
        await renamePasskey(current.passkey.id, name.trim());
        void message.success(t('passkeys.renamed'));
      }
      open(undefined);
      await refresh();
    });
    setBusy(false);
  };

  const remove = (passkey: PasskeyView) =>
    modal.confirm({
      title: t('passkeys.deleteConfirm', { name: passkey.name }),
      okButtonProps: { danger: true, 'data-testid': 'passkey-delete-confirm' },
      onOk: () =>
        secondFactor.guard(async () => {
          await deletePasskey(passkey.id);
          void message.success(t('passkeys.deleted'));
          await refresh();
        }),
    });

  const enabled = status?.passkey_login ?? true;
  const list = passkeys.data?.passkeys ?? [];
  return (
    <Card
      size="small"
      title={t('passkeys.title')}
      style={{ marginBottom: 16 }}
      data-testid="personal-passkeys"
      extra={
        enabled && (
          <Button type="primary" size="small" onClick={() => open({ kind: 'add' })} disabled={!browserSupportsWebAuthn()} data-testid="passkey-add">
            {t('passkeys.add')}
          </Button>
        )
      }
    >
      {!enabled && <Alert type="info" showIcon title={t('passkeys.turnedOff')} style={{ marginBottom: 8 }} />}
      <Typography.Paragraph type="secondary">{t('passkeys.explain')}</Typography.Paragraph>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('passkeys.none')} />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(passkey) => (
            <List.Item
              data-testid="passkey-item"
              actions={[
                <Button
                  key="rename"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => open({ kind: 'rename', passkey })}
                  aria-label={t('passkeys.rename')}
                />,
                <Button
                  key="delete"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(passkey)}
                  aria-label={t('passkeys.delete')}
                  data-testid="passkey-delete"
                />,
              ]}
            >
              <Flex vertical>
                <Flex gap={8} align="center">
                  <Typography.Text strong data-testid="passkey-name">
                    {passkey.name}
                  </Typography.Text>
                  {passkey.backup_eligible && <Tag>{t('passkeys.synced')}</Tag>}
                </Flex>
                <Typography.Text type="secondary">
                  {t('passkeys.created', { time: formatUnixTime(passkey.created_at) })} ·{' '}
                  {passkey.last_used_at ? t('passkeys.lastUsed', { time: formatUnixTime(passkey.last_used_at) }) : t('passkeys.neverUsed')}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
      <Modal
        open={dialog !== undefined}
        title={t(dialog?.kind === 'rename' ? 'passkeys.rename' : 'passkeys.add')}
        onCancel={() => open(undefined)}
        onOk={() => void save()}
        okButtonProps={{ disabled: dialog?.kind === 'rename' && !name.trim() }}
        confirmLoading={busy}
        destroyOnHidden
      >
        <Typography.Paragraph>{t(dialog?.kind === 'rename' ? 'passkeys.renameHint' : 'passkeys.addHint')}</Typography.Paragraph>
        <Input
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder={t('passkeys.namePlaceholder')}
          aria-label={t('passkeys.name')}
          maxLength={passkeyNameMax}
          data-testid="passkey-name-input"
        />
      </Modal>
      {secondFactor.modal}
    </Card>
  );
}
