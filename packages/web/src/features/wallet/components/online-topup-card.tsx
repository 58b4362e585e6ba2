import { App, Button, Card, Descriptions, Flex, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';
import { quoteAmount } from '../api/quote-amount.ts';
import { startPayment } from '../api/start-payment.ts';
import { postPaymentForm } from '../lib/post-payment-form.ts';

const paymentMethods = [
  { value: 'zfb', labelKey: 'online.alipay' },
  { value: 'wx', labelKey: 'online.wechat' },
] as const;

/** Online top-up: amount (at least the configured minimum), a confirmation with the real price, then the payment page. */
export function OnlineTopUpCard() {
  const { t } = useTranslation('wallet');
  const { message } = App.useApp();
  const status = useStatusValue();
  const minimum = status?.min_topup || 1;
  const [amount, setAmount] = useState<number>(minimum);
  const [confirm, setConfirm] = useState<{ method: string; payable: number } | null>(null);
  const [busy, setBusy] = useState(false);

  if (!status?.enable_online_topup) return null;

  async function prepare(method: string) {
    if (!Number.isFinite(amount) || amount < minimum) {
      void message.error(t('online.belowMinimum', { min: minimum }));
      return;
    }
    setBusy(true);
    try {
      setConfirm({ method, payable: await quoteAmount(amount) });
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function pay() {
    if (!confirm) return;
    setBusy(true);
    try {
      postPaymentForm(await startPayment(amount, confirm.method));
      setConfirm(null);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title={t('online.title')}>
      <Flex vertical gap={12}>
        <Flex gap={8} align="center" wrap>
          <InputNumber
            min={0}
            precision={0}
            value={amount}
            onChange={(value) => setAmount(Number(value ?? 0))}
            aria-label={t('online.amount')}
            style={{ width: 200 }}
          />
          <Typography.Text type="secondary">{t('online.minimum', { min: minimum })}</Typography.Text>
        </Flex>
        <Flex gap={8} wrap>
          {paymentMethods.map((method) => (
            <Button key={method.value} loading={busy && confirm === null} onClick={() => void prepare(method.value)}>
              {t(method.labelKey)}
            </Button>
          ))}
        </Flex>
      </Flex>
      <Modal
        open={confirm !== null}
        title={t('online.confirmTitle')}
        onCancel={() => setConfirm(null)}
        onOk={() => void pay()}
        confirmLoading={busy}
        okText={t('online.confirm')}
      >
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('online.amount')}>{amount}</Descriptions.Item>
          <Descriptions.Item label={t('online.payable')}>{t('online.yuan', { value: (confirm?.payable ?? 0).toFixed(2) })}</Descriptions.Item>
        </Descriptions>
      </Modal>
    </Card>
  );
}
