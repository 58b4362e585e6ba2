import type { PayMethod } from '@switchboard/contracts';
import { App, Button, Card, Descriptions, Flex, InputNumber, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';
import { useTopUpInfo } from '../api/get-topup-info.ts';
import { quoteAmount } from '../api/quote-amount.ts';
import { startPayment } from '../api/start-payment.ts';
import { postPaymentForm } from '../lib/post-payment-form.ts';

/** The two usual Epay types get the console's own names; others show the name the administrator gave them. */
const knownMethodLabels: Readonly<Record<string, string>> = { alipay: 'online.alipay', wxpay: 'online.wechat' };

/**
 * Online top-up: preset amounts (with their discounts) or a typed amount of at least the configured
 * minimum, one button per payment method the site offers, a confirmation with the real price, then
 * the payment page.
 */
export function OnlineTopUpCard() {
  const { t } = useTranslation('wallet');
  const { message } = App.useApp();
  const status = useStatusValue();
  const info = useTopUpInfo().data;
  const minimum = status?.min_topup || 1;
  const [amount, setAmount] = useState<number>(minimum);
  const [confirm, setConfirm] = useState<{ method: string; payable: number } | null>(null);
  const [busy, setBusy] = useState(false);

  if (!status?.enable_online_topup) return null;
  const methods: PayMethod[] = info?.pay_methods ?? [];
  const presets = (info?.amount_options ?? []).filter((preset) => preset >= minimum);
  const discountLabel = (preset: number) => {
    const factor = info?.discount[String(preset)];
    if (factor === undefined || factor >= 1) return null;
    return t('online.discount', { percent: Math.round((1 - factor) * 100) });
  };

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
        {presets.length > 0 && (
          <Flex gap={8} wrap role="group" aria-label={t('online.presets')}>
            {presets.map((preset) => (
              <Button key={preset} type={preset === amount ? 'primary' : 'default'} onClick={() => setAmount(preset)}>
                {preset}
                {discountLabel(preset) && (
                  <Tag color="red" style={{ marginInlineStart: 6, marginInlineEnd: 0 }}>
                    {discountLabel(preset)}
                  </Tag>
                )}
              </Button>
            ))}
          </Flex>
        )}
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
          {methods.map((method) => (
            <Button key={method.type} loading={busy && confirm === null} onClick={() => void prepare(method.type)}>
              {knownMethodLabels[method.type] ? t(knownMethodLabels[method.type] ?? '') : method.name}
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
