import { Divider, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../../../components/form-drawer.tsx';
import { useDrawerRecord, useSaveAction } from '../../../../components/use-form-drawer.ts';
import { createChannel } from '../../api/create-channel.ts';
import { getChannel } from '../../api/get-channel.ts';
import { updateChannel } from '../../api/update-channel.ts';
import { channelToForm, emptyChannelForm, formToChannelInput, type ChannelFormValues } from '../../lib/channel-form.ts';
import { IdentitySection } from './identity-section.tsx';
import { KeySection } from './key-section.tsx';
import { MappingSection } from './mapping-section.tsx';
import { ModelsSection } from './models-section.tsx';
import { RoutingSection } from './routing-section.tsx';
import { TypeSection } from './type-section.tsx';

interface ChannelDrawerProps {
  open: boolean;
  /** The channel to edit; none means create. */
  channelId?: number;
  onClose: () => void;
  onSaved: () => void;
}

/** The channel editor, one component per section of the form. */
export function ChannelDrawer({ open, channelId, onClose, onSaved }: ChannelDrawerProps) {
  const { t } = useTranslation('channels');
  const [form] = Form.useForm<ChannelFormValues>();
  const creating = channelId === undefined;
  const channel = useDrawerRecord({
    open,
    id: channelId,
    queryKey: ['channels', 'one'],
    fetch: getChannel,
    form,
    blank: emptyChannelForm,
    toForm: channelToForm,
  });
  const { saving, run } = useSaveAction(() => {
    onSaved();
    onClose();
  });

  const submit = (values: ChannelFormValues) =>
    run(async () => {
      const input = formToChannelInput(values);
      if (!input.test_model) input.test_model = values.models[0] ?? '';
      if (channelId !== undefined) await updateChannel(channelId, input);
      else await createChannel(input, values.batch);
      return creating ? t('messages.created') : t('messages.updated');
    });

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle', { name: channel?.data?.name ?? '' })}
      width={640}
      record={channel}
      saving={saving}
      cancelText={t('drawer.cancel')}
      submitText={t('drawer.submit')}
      onSubmit={() => form.submit()}
      loadError={(error) => `${t('messages.notFound')}: ${error.message}`}
    >
      <Form form={form} layout="vertical" initialValues={emptyChannelForm} onFinish={(values) => void submit(values)} scrollToFirstError>
        <TypeSection />
        <IdentitySection />
        <Divider titlePlacement="start">{t('drawer.sectionModels')}</Divider>
        <ModelsSection channelId={channelId} />
        <MappingSection />
        <Divider titlePlacement="start">{t('drawer.sectionKey')}</Divider>
        <KeySection channelId={channelId} />
        <Divider titlePlacement="start">{t('drawer.sectionRouting')}</Divider>
        <RoutingSection />
      </Form>
    </FormDrawer>
  );
}
