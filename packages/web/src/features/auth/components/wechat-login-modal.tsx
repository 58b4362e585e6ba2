import { Button, Form, Input, Modal, Typography, type InputRef } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusOnOpen } from '../../../components/use-focus-on-open.ts';
import { ApiError } from '../../../lib/api-client.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';
import { wechatLogin } from '../api/wechat-login.ts';

interface WechatLoginModalProps {
  open: boolean;
  qrCodeUrl: string;
  onClose: () => void;
  onLoggedIn: (user: LoginAnswer) => void;
}

/** Scan the official account's QR code, send it 'verification code', type the code it replies with. */
export function WechatLoginModal({ open, qrCodeUrl, onClose, onLoggedIn }: WechatLoginModalProps) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<{ code: string }>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [codeRef, focusCode] = useFocusOnOpen<InputRef>();

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    setError('');
    try {
      onLoggedIn(await wechatLogin(code.trim()));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('wechat.title')} onCancel={onClose} footer={null} destroyOnHidden afterOpenChange={focusCode}>
      {qrCodeUrl && <img src={qrCodeUrl} alt="" width={200} style={{ display: 'block', margin: '0 auto 12px' }} />}
      <Typography.Paragraph type="secondary">{t('wechat.hint')}</Typography.Paragraph>
      <Form form={form} onFinish={(values) => void submit(values)} layout="vertical">
        <Form.Item
          name="code"
          label={t('wechat.code')}
          rules={[{ required: true, whitespace: true, message: t('wechat.codeRequired') }]}
          validateStatus={error ? 'error' : undefined}
          help={error || undefined}
        >
          <Input ref={codeRef} maxLength={32} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('login.submit')}
        </Button>
      </Form>
    </Modal>
  );
}
