import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Flex, Form, Input, InputNumber, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QuotaInput } from '../../../components/quota-input.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { useIsMobile } from '../../../lib/use-is-mobile.ts';
import { createRedemptions } from '../api/create-redemptions.ts';
import { getRedemption } from '../api/get-redemption.ts';
import { defaultRedemptionQuota, maximumBatch } from '../api/redemption-types.ts';
import { updateRedemption } from '../api/update-redemption.ts';

interface FormValues {
  name: string;
  quota: number;
  count: number;
}

interface RedemptionDrawerProps {
  open: boolean;
  codeId?: number;
  onClose: () => void;
  onSaved: () => void;
  onCreated: (name: string, codes: string[]) => void;
}

/** Name, quota (presets) and, on creation, how many codes (1 to 100). */
export function RedemptionDrawer({ open, codeId, onClose, onSaved, onCreated }: RedemptionDrawerProps) {
  const { t } = useTranslation('redemptions');
  const { message } = App.useApp();
  const formatQuota = useQuotaFormatter();
  const mobile = useIsMobile();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const creating = codeId === undefined;
  const code = useQuery({ queryKey: ['redemptions', 'one', codeId], queryFn: ({ signal }) => getRedemption(codeId ?? 0, signal), enabled: open && !creating, staleTime: 0 });

  useEffect(() => {
    if (!open) return;
    if (creating) form.setFieldsValue({ name: '', quota: defaultRedemptionQuota, count: 1 });
    else if (code.data) form.setFieldsValue({ name: code.data.name, quota: code.data.quota, count: 1 });
  }, [open, creating, code.data, form]);

  async function submit(values: FormValues) {
    const quota = Math.trunc(values.quota);
    // An unnamed batch is called after its value, e.g. "$0.20".
    const name = values.name.trim() || formatQuota(quota);
    setSaving(true);
    try {
      if (codeId !== undefined) {
        await updateRedemption(codeId, { name, quota });
        void message.success(t('messages.updated'));
      } else {
        const codes = await createRedemptions({ name, quota }, Math.trunc(values.count));
        void message.success(t('messages.created', { count: codes.length }));
        onCreated(name, codes);
      }
      onSaved();
      onClose();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle')}
      size={mobile ? '100%' : 520}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('drawer.cancel')}</Button>
          <Button type="primary" loading={saving} disabled={!creating && !code.data} onClick={() => form.submit()}>
            {t('drawer.submit')}
          </Button>
        </Flex>
      }
    >
      {!creating && code.isLoading && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {!creating && code.isError && <Alert type="error" showIcon title={code.error.message} />}
      {(creating || code.data) && (
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Form.Item name="name" label={t('form.name')} extra={t('form.nameHelp')}>
            <Input maxLength={20} showCount placeholder={t('form.namePlaceholder')} />
          </Form.Item>
          <Form.Item name="quota" label={t('form.quota')} rules={[{ validator: async (_rule, value: unknown) => { if (typeof value !== 'number' || value <= 0) throw new Error(t('form.quotaInvalid')); } }]}>
            <QuotaInput />
          </Form.Item>
          {creating && (
            <Form.Item
              name="count"
              label={t('form.count')}
              extra={t('form.countHelp', { max: maximumBatch })}
              rules={[{ validator: async (_rule, value: unknown) => { if (!Number.isInteger(value) || Number(value) < 1 || Number(value) > maximumBatch) throw new Error(t('form.countInvalid', { max: maximumBatch })); } }]}
            >
              <InputNumber min={1} max={maximumBatch} precision={0} style={{ width: 200 }} />
            </Form.Item>
          )}
        </Form>
      )}
    </Drawer>
  );
}
