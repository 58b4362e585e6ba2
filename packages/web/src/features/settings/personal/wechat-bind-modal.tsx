import { App, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { bindWechat } from '../api/bind-wechat.ts';

interface WechatBindModalProps {
  open: boolean;
  qrCodeUrl: string;
  onClose: () => void;
  onBound: () => void;
}

export function WechatBindModal({ open, qrCodeUrl, onClose, onBound }: WechatBindModalProps) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!code.trim()) return void message.error(t('bindings.wechatCodeRequired'));
    setBusy(true);
    try {
      await bindWechat(code.trim());
      void message.success(t('bindings.wechatBound'));
      setCode('');
      onBound();
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('bindings.bindWechat')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      {qrCodeUrl && <img src={qrCodeUrl} alt="" width={200} style={{ display: 'block', margin: '0 auto 12px' }} />}
      <Typography.Paragraph type="secondary">{t('bindings.wechatHint')}</Typography.Paragraph>
      <Input
        value={code}
        onChange={(event) => setCode(event.target.value)}
        placeholder={t('bindings.code')}
        aria-label={t('bindings.code')}
        data-testid="bind-wechat-code"
      />
    </Modal>
  );
}
