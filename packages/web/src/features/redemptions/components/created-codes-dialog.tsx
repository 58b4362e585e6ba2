import { Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { downloadCodes } from '../lib/download-codes.ts';

/** After creation: the new codes, with the offer to save them as `<name>.txt`. */
export function CreatedCodesDialog({ created, onClose }: { created: { name: string; codes: string[] } | null; onClose: () => void }) {
  const { t } = useTranslation('redemptions');
  return (
    <Modal
      open={created !== null}
      title={t('created.title', { count: created?.codes.length ?? 0 })}
      okText={t('created.download')}
      cancelText={t('created.close')}
      onOk={() => {
        if (created) downloadCodes(created.name, created.codes);
        onClose();
      }}
      onCancel={onClose}
    >
      <p>{t('created.description')}</p>
      <Input.TextArea readOnly value={created?.codes.join('\n') ?? ''} autoSize={{ minRows: 3, maxRows: 12 }} />
    </Modal>
  );
}
