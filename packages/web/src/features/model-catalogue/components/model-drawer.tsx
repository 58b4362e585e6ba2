import { CatalogueStatus, type ModelMetaView, type NameRuleValue, type VendorView } from '@switchboard/contracts';
import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../../components/form-drawer.tsx';
import { useDrawerRecord, useSaveAction } from '../../../components/use-form-drawer.ts';
import { VendorBadge } from '../../../components/vendor-badge.tsx';
import { getModel, saveModel } from '../api/save-model.ts';
import { endpointTypesOf, tagList } from '../lib/tags.ts';

interface FormValues {
  model_name: string;
  name_rule: NameRuleValue;
  vendor_id: number | undefined;
  icon: string;
  tags: string[];
  description: string;
  endpoints: string;
  enabled: boolean;
  sync_official: boolean;
}

interface ModelDrawerProps {
  open: boolean;
  modelId?: number;
  vendors: readonly VendorView[];
  onClose: () => void;
  onSaved: () => void;
}

const blankModel: FormValues = {
  model_name: '',
  name_rule: 0,
  vendor_id: undefined,
  icon: '',
  tags: [],
  description: '',
  endpoints: '',
  enabled: true,
  sync_official: true,
};

const modelToForm = (model: ModelMetaView): FormValues => ({
  model_name: model.model_name,
  name_rule: model.name_rule,
  vendor_id: model.vendor_id || undefined,
  icon: model.icon,
  tags: tagList(model.tags),
  description: model.description,
  endpoints: model.endpoints,
  enabled: model.status === CatalogueStatus.enabled,
  sync_official: model.sync_official !== 0,
});

/** Name and how it matches, vendor, icon, tags, description, own endpoints (JSON), status, sync. */
export function ModelDrawer({ open, modelId, vendors, onClose, onSaved }: ModelDrawerProps) {
  const { t } = useTranslation('model-catalogue');
  const [form] = Form.useForm<FormValues>();
  const record = useDrawerRecord({ open, id: modelId, queryKey: ['model-catalogue', 'model'], fetch: getModel, form, blank: blankModel, toForm: modelToForm });
  const { saving, run } = useSaveAction(() => {
    onSaved();
    onClose();
  });

  const submit = (values: FormValues) =>
    run(async () => {
      await saveModel(modelId, {
        model_name: values.model_name.trim(),
        name_rule: values.name_rule,
        vendor_id: values.vendor_id ?? 0,
        icon: values.icon.trim(),
        tags: values.tags.join(','),
        description: values.description,
        endpoints: values.endpoints.trim(),
        status: values.enabled ? CatalogueStatus.enabled : CatalogueStatus.hidden,
        sync_official: values.sync_official ? 1 : 0,
      });
      return modelId === undefined ? t('messages.created') : t('messages.updated');
    });

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      title={modelId === undefined ? t('drawer.createModel') : t('drawer.editModel')}
      width={560}
      record={record}
      saving={saving}
      cancelText={t('drawer.cancel')}
      submitText={t('drawer.submit')}
      onSubmit={() => form.submit()}
      loadError={(error) => error.message}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="model_name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="name_rule" label={t('form.nameRule')} extra={t('form.nameRuleHelp')}>
          <Select<NameRuleValue> options={([0, 1, 2, 3] as const).map((rule) => ({ value: rule, label: t(`nameRule.${rule}`) }))} />
        </Form.Item>
        <Form.Item name="vendor_id" label={t('form.vendor')}>
          <Select
            allowClear
            placeholder={t('noVendor')}
            aria-label={t('form.vendor')}
            options={vendors.map((vendor) => ({ value: vendor.id, label: <VendorBadge name={vendor.name} icon={vendor.icon} />, title: vendor.name }))}
          />
        </Form.Item>
        <Form.Item name="icon" label={t('form.icon')} extra={t('form.iconHelp')}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="tags" label={t('form.tags')} extra={t('form.tagsHelp')}>
          <Select mode="tags" tokenSeparators={[',', '，']} aria-label={t('form.tags')} />
        </Form.Item>
        <Form.Item name="description" label={t('form.description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Form.Item
          name="endpoints"
          label={t('form.endpoints')}
          extra={t('form.endpointsHelp')}
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                const text = typeof value === 'string' ? value.trim() : '';
                if (text !== '' && endpointTypesOf(text).length === 0) throw new Error(t('form.endpointsInvalid'));
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder='{"openai": "/v1/chat/completions"}' />
        </Form.Item>
        <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="sync_official" label={t('form.syncOfficial')} extra={t('form.syncOfficialHelp')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
