import { useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSetup } from '@switchboard/contracts';
import { Alert, App, Button, Card, Flex, Input, Modal, QRCode, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { disableTwoFactor } from '../api/disable-two-factor.ts';
import { enableTwoFactor } from '../api/enable-two-factor.ts';
import { twoFactorStatusKey, useTwoFactorStatus } from '../api/get-two-factor-status.ts';
import { regenerateBackupCodes } from '../api/regenerate-backup-codes.ts';
import { setupTwoFactor } from '../api/setup-two-factor.ts';

type Dialog = { kind: 'enrol'; setup: TwoFactorSetup } | { kind: 'disable' } | { kind: 'regenerate' } | { kind: 'codes'; codes: string[] };

/** Backup codes as shown once: a copyable block, one per line. */
function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('settings');
  return (
    <>
      <Alert type="warning" showIcon title={t('twoFactor.backupCodesOnce')} style={{ marginBottom: 8 }} />
      <Typography.Paragraph copyable={{ text: codes.join('\n') }} data-testid="backup-codes">
        <Flex wrap gap={8}>
          {codes.map((code) => (
            <Typography.Text code key={code}>
              {code}
            </Typography.Text>
          ))}
        </Flex>
      </Typography.Paragraph>
    </>
  );
}

/** TOTP second factor: enrol with a QR code and a confirming code, regenerate backup codes, turn off. */
export function TwoFactorCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [dialog, setDialog] = useState<Dialog>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const open = (next: Dialog | undefined) => {
    setCode('');
    setDialog(next);
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusKey });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  const startEnrolment = () => run(async () => open({ kind: 'enrol', setup: await setupTwoFactor() }));
  const confirm = () =>
    run(async () => {
      if (dialog?.kind === 'enrol') {
        await enableTwoFactor(code.trim());
        void message.success(t('twoFactor.enabled'));
        open(undefined);
      } else if (dialog?.kind === 'disable') {
        await disableTwoFactor(code.trim());
        void message.success(t('twoFactor.disabled'));
        open(undefined);
      } else if (dialog?.kind === 'regenerate') {
        open({ kind: 'codes', codes: await regenerateBackupCodes(code.trim()) });
      }
    });

  const enabled = status.data?.enabled ?? false;
  const codeInput = (
    <Input
      value={code}
      onChange={(event) => setCode(event.target.value)}
      placeholder={dialog?.kind === 'disable' ? t('twoFactor.codeOrBackup') : t('twoFactor.codePlaceholder')}
      aria-label={t('twoFactor.code')}
      autoComplete="one-time-code"
      maxLength={16}
      data-testid="two-factor-setting-code"
    />
  );

  return (
    <Card size="small" title={t('twoFactor.title')} style={{ marginBottom: 16 }} data-testid="personal-two-factor">
      <Flex gap={8} wrap align="center">
        {enabled ? (
          <>
            <Tag color="green" data-testid="two-factor-state">
              {t('twoFactor.on')}
            </Tag>
            <Typography.Text type="secondary">{t('twoFactor.remaining', { count: status.data?.backup_codes_remaining ?? 0 })}</Typography.Text>
            <Button onClick={() => open({ kind: 'regenerate' })} data-testid="two-factor-regenerate">
              {t('twoFactor.regenerate')}
            </Button>
            <Button danger onClick={() => open({ kind: 'disable' })} data-testid="two-factor-disable">
              {t('twoFactor.disable')}
            </Button>
          </>
        ) : (
          <>
            <Tag data-testid="two-factor-state">{t('twoFactor.off')}</Tag>
            <Typography.Text type="secondary">{t('twoFactor.explain')}</Typography.Text>
            <Button type="primary" loading={busy && !dialog} onClick={() => void startEnrolment()} data-testid="two-factor-enable">
              {t('twoFactor.enable')}
            </Button>
          </>
        )}
      </Flex>
      <Modal
        open={dialog !== undefined}
        title={t(dialog?.kind === 'disable' ? 'twoFactor.disable' : dialog?.kind === 'enrol' ? 'twoFactor.enable' : 'twoFactor.regenerate')}
        onCancel={() => open(undefined)}
        onOk={() => (dialog?.kind === 'codes' ? open(undefined) : void confirm())}
        okButtonProps={{ danger: dialog?.kind === 'disable', disabled: dialog?.kind !== 'codes' && !code.trim() }}
        confirmLoading={busy}
        destroyOnHidden
      >
        {dialog?.kind === 'enrol' && (
          <Flex vertical gap={8}>
            <Typography.Paragraph>{t('twoFactor.scan')}</Typography.Paragraph>
            <Flex justify="center">
              <QRCode value={dialog.setup.qr_code_data} data-testid="two-factor-qr" />
            </Flex>
            <Typography.Paragraph>
              {t('twoFactor.secret')}{' '}
              <Typography.Text code copyable data-testid="two-factor-secret">
                {dialog.setup.secret}
              </Typography.Text>
            </Typography.Paragraph>
            <BackupCodes codes={dialog.setup.backup_codes} />
            {codeInput}
          </Flex>
        )}
        {(dialog?.kind === 'disable' || dialog?.kind === 'regenerate') && codeInput}
        {dialog?.kind === 'codes' && <BackupCodes codes={dialog.codes} />}
      </Modal>
    </Card>
  );
}
