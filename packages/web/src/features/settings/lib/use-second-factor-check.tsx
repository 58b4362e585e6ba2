import { App, Button, Flex, Input, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { usePasskeys } from '../api/get-passkeys.ts';
import { useTwoFactorStatus } from '../api/get-two-factor-status.ts';
import { verifySecondFactor } from '../api/verify-second-factor.ts';
import { verifyWithPasskey } from '../api/verify-with-passkey.ts';

type Action = () => Promise<void>;

/**
 * Sensitive actions (a new password or e-mail, the access token, deleting the account or a passkey)
 * answer `verification_required` while a second factor is set and no check was made lately: `guard`
 * then asks for a TOTP or backup code, or a passkey, and runs the action again. Other failures are shown.
 */
export function useSecondFactorCheck(): { guard: (action: Action) => Promise<void>; modal: ReactNode } {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const totp = useTwoFactorStatus();
  const passkeys = usePasskeys();
  const [pending, setPending] = useState<Action>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const showError = (error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error));

  const guard = async (action: Action) => {
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'verification_required') {
        setCode('');
        setPending(() => action);
      } else showError(error);
    }
  };

  const verifyThenRun = async (verify: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await verify();
    } catch (error) {
      showError(error);
      return;
    } finally {
      setBusy(false);
    }
    const action = pending;
    setPending(undefined);
    if (action) await guard(action);
  };

  const totpOn = totp.data?.enabled ?? false;
  const passkeyOn = passkeys.data?.enabled ?? false;
  const modal = (
    <Modal
      open={pending !== undefined}
      title={t('twoFactor.verifyTitle')}
      onCancel={() => setPending(undefined)}
      onOk={() => void verifyThenRun(() => verifySecondFactor(code.trim()))}
      okButtonProps={{ disabled: !code.trim(), style: totpOn ? {} : { display: 'none' } }}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Flex vertical gap={8}>
        <Typography.Paragraph>{t(totpOn ? 'twoFactor.verifyHint' : 'passkeys.verifyHint')}</Typography.Paragraph>
        {totpOn && (
          <Input
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={t('twoFactor.codeOrBackup')}
            aria-label={t('twoFactor.code')}
            autoComplete="one-time-code"
            maxLength={16}
            data-testid="verify-second-factor-code"
          />
        )}
        {passkeyOn && (
          <Button onClick={() => void verifyThenRun(verifyWithPasskey)} loading={busy} data-testid="verify-with-passkey">
            {t('passkeys.verifyWithPasskey')}
          </Button>
        )}
      </Flex>
    </Modal>
  );
  return { guard, modal };
}
