import type { RedemptionView } from '@switchboard/contracts';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../../components/form-drawer.tsx';
import { QuotaInput } from '../../../components/quota-input.tsx';
import { useDrawerRecord, useSaveAction } from '../../../components/use-form-drawer.ts';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { createRedemptions } from '../api/create-redemptions.ts';
import { getRedemption } from '../api/get-redemption.ts';
import { updateRedemption } from '../api/update-redemption.ts';
import { defaultRedemptionQuota, maximumBatch } from '../lib/redemption-defaults.ts';

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

const blankCode: FormValues = { name: '', quota: defaultRedemptionQuota, count: 1 };
const codeToForm = (code: RedemptionView): FormValues => ({ name: code.name, quota: code.quota, count: 1 });

/** Name, quota (presets) and, on creation, how many codes (1 to 100). */
export function RedemptionDrawer({ open, codeId, onClose, onSaved, onCreated }: RedemptionDrawerProps) {
  const { t } = useTranslation('redemptions');
  const formatQuota = useQuotaFormatter();
  const [form] = Form.useForm<FormValues>();
  const creating = codeId === undefined;
  const code = useDrawerRecord({ open, id: codeId, queryKey: ['redemptions', 'one'], fetch: getRedemption, form, blank: blankCode, toForm: codeToForm });
  const { saving, run } = useSaveAction(() => {
    onSaved();
    onClose();
  });

  const submit = (values: FormValues) =>
    run(async () => {
      const quota = Math.trunc(values.quota);
      // An unnamed batch is called after its value, e.g. "$0.20".
      const name = values.name.trim() || formatQuota(quota);
      if (codeId !== undefined) {
        await updateRedemption(codeId, { name, quota });
        return t('messages.updated');
      }
      const codes = await createRedemptions({ name, quota }, Math.trunc(values.count));
      onCreated(name, codes);
      return t('messages.created', { count: codes.length });
    });

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle')}
      width={520}
      record={code}
      saving={saving}
      cancelText={t('drawer.cancel')}
      submitText={t('drawer.submit')}
      onSubmit={() => form.submit()}
      loadError={(error) => error.message}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="name" label={t('form.name')} extra={t('form.nameHelp')}>
          <Input maxLength={20} showCount placeholder={t('form.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="quota"
          label={t('form.quota')}
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'number' || value <= 0) throw new Error(t('form.quotaInvalid'));
              },
            },
          ]}
        >
          <QuotaInput />
        </Form.Item>
        {creating && (
          <Form.Item
            name="count"
            label={t('form.count')}
            extra={t('form.countHelp', { max: maximumBatch })}
            rules={[
              {
                validator: async (_rule, value: unknown) => {
                  if (!Number.isInteger(value) || Number(value) < 1 || Number(value) > maximumBatch)
                    throw new Error(t('form.countInvalid', { max: maximumBatch }));
                },
              },
            ]}
          >
            <InputNumber min={1} max={maximumBatch} precision={0} style={{ width: 200 }} />
          </Form.Item>
        )}
      </Form>
    </FormDrawer>
  );
}
