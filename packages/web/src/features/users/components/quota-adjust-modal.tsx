import { InputNumber, Modal, Typography } from 'antd';
import { useState, type ComponentRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusOnOpen } from '../../../components/use-focus-on-open.ts';
import { useQuotaFormatter } from '../../../lib/system-status.ts';

interface QuotaAdjustModalProps {
  open: boolean;
  current: number;
  onCancel: () => void;
  /** The signed amount to add (negative to take away). */
  onConfirm: (delta: number) => void;
}

/** Adds a signed amount to the balance and shows 'old + added = new' before it is accepted. */
export function QuotaAdjustModal({ open, current, onCancel, onConfirm }: QuotaAdjustModalProps) {
  const { t } = useTranslation('users');
  const formatQuota = useQuotaFormatter();
  const [delta, setDelta] = useState<number | null>(null);
  const [deltaRef, focusDelta] = useFocusOnOpen<ComponentRef<typeof InputNumber>>();
  const amount = delta ?? 0;

  return (
    <Modal
      open={open}
      title={t('quota.title')}
      onCancel={onCancel}
      onOk={() => {
        onConfirm(amount);
        setDelta(null);
      }}
      okButtonProps={{ disabled: amount === 0 }}
      destroyOnHidden
      afterOpenChange={focusDelta}
    >
      <InputNumber<number>
        ref={deltaRef}
        value={delta}
        onChange={setDelta}
        precision={0}
        style={{ width: '100%' }}
        placeholder={t('quota.placeholder')}
        aria-label={t('quota.placeholder')}
        data-testid="quota-delta"
      />
      <Typography.Paragraph style={{ marginTop: 12 }} data-testid="quota-equation">
        {t('quota.equation', { old: current, added: amount, result: current + amount })}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('quota.equationMoney', { old: formatQuota(current), result: formatQuota(current + amount) })}</Typography.Text>
    </Modal>
  );
}
