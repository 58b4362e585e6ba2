import { CatalogueStatus, type VendorView } from '@switchboard/contracts';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../../components/form-drawer.tsx';
import { useDrawerRecord, useSaveAction } from '../../../components/use-form-drawer.ts';
import { getVendor, saveVendor } from '../api/vendors.ts';

interface FormValues {
  name: string;
  icon: string;
  description: string;
  enabled: boolean;
}

const blankVendor: FormValues = { name: '', icon: '', description: '', enabled: true };
const vendorToForm = (vendor: VendorView): FormValues => ({
  name: vendor.name,
  icon: vendor.icon,
  description: vendor.description,
  enabled: vendor.status === CatalogueStatus.enabled,
});

/** Name, icon key, description, status. */
export function VendorDrawer({ open, vendorId, onClose, onSaved }: { open: boolean; vendorId?: number; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('model-catalogue');
  const [form] = Form.useForm<FormValues>();
  const record = useDrawerRecord({
    open,
    id: vendorId,
    queryKey: ['model-catalogue', 'vendor'],
    fetch: getVendor,
    form,
    blank: blankVendor,
    toForm: vendorToForm,
  });
  const { saving, run } = useSaveAction(() => {
    onSaved();
    onClose();
  });
  const submit = (values: FormValues) =>
    run(async () => {
      await saveVendor(vendorId, {
        name: values.name.trim(),
        icon: values.icon.trim(),
        description: values.description,
        status: values.enabled ? CatalogueStatus.enabled : CatalogueStatus.hidden,
      });
      return vendorId === undefined ? t('messages.created') : t('messages.updated');
    });
  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      title={vendorId === undefined ? t('drawer.createVendor') : t('drawer.editVendor')}
      width={480}
      record={record}
      saving={saving}
      cancelText={t('drawer.cancel')}
      submitText={t('drawer.submit')}
      onSubmit={() => form.submit()}
      loadError={(error) => error.message}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="name" label={t('form.vendorName')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="icon" label={t('form.icon')} extra={t('form.iconHelp')}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="description" label={t('form.description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
