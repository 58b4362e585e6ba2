import { App, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SendCodeButton } from '../../../components/send-code-button.tsx';
import { TurnstileWidget } from '../../../components/turnstile-widget.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useStatusValue } from '../../../lib/system-status.ts';
import { bindEmail } from '../api/bind-email.ts';
import { sendBindingCode } from '../api/send-binding-code.ts';
import { useSecondFactorCheck } from '../lib/use-second-factor-check.tsx';

interface EmailBindModalProps {
  open: boolean;
  onClose: () => void;
  onBound: () => void;
}

/** E-mail binding: send a code (30 s cooldown), type it, bind. */
export function EmailBindModal({ open, onClose, onBound }: EmailBindModalProps) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const status = useStatusValue();
  const [form] = Form.useForm<{ email: string; code: string }>();
  const [turnstileToken, setTurnstileToken] = useState('');
  const [busy, setBusy] = useState(false);
  const turnstile = Boolean(status?.turnstile_check && status.turnstile_site_key);
  const showError = (error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error));
  const secondFactor = useSecondFactorCheck();

  const sendCode = async () => {
    const email = ((form.getFieldValue('email') as string | undefined) ?? '').trim();
    if (!email) {
      void message.error(t('bindings.emailRequired'));
      return false;
    }
    if (turnstile && !turnstileToken) {
      void message.info(t('bindings.turnstileChecking'));
      return false;
    }
    try {
      await sendBindingCode(email, turnstileToken);
      void message.success(t('bindings.codeSent'));
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
  };

  const submit = async () => {
    const values = form.getFieldsValue();
    const email = (values.email ?? '').trim();
    const code = (values.code ?? '').trim();
    if (!email) return void message.error(t('bindings.emailRequired'));
    if (!code) return void message.error(t('bindings.codeRequired'));
    setBusy(true);
    // A new e-mail can reset the password: with a second factor set, the server asks for a fresh check first.
    await secondFactor.guard(async () => {
      await bindEmail(email, code);
      void message.success(t('bindings.emailBound'));
      onBound();
    });
    setBusy(false);
  };

  return (
    <Modal open={open} title={t('bindings.bindEmail')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      <Form form={form} name="bindEmail" layout="vertical">
        <Form.Item label={t('bindings.email')} htmlFor="bindEmail_email">
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="email" noStyle>
              <Input type="email" autoComplete="email" data-testid="bind-email" />
            </Form.Item>
            <SendCodeButton onSend={sendCode} />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="code" label={t('bindings.code')}>
          <Input autoComplete="one-time-code" data-testid="bind-email-code" />
        </Form.Item>
        {turnstile && status && <TurnstileWidget siteKey={status.turnstile_site_key} onToken={setTurnstileToken} />}
      </Form>
      {secondFactor.modal}
    </Modal>
  );
}
