import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Divider, Drawer, Flex, Form, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../../lib/use-is-mobile.ts';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<ChannelFormValues>();
  const [saving, setSaving] = useState(false);
  const mobile = useIsMobile();
  const creating = channelId === undefined;
  const channel = useQuery({ queryKey: ['channels', 'one', channelId], queryFn: ({ signal }) => getChannel(channelId ?? 0, signal), enabled: open && !creating, staleTime: 0 });

  useEffect(() => {
    if (!open) return;
    if (creating) form.setFieldsValue(emptyChannelForm);
    else if (channel.data) form.setFieldsValue(channelToForm(channel.data));
  }, [open, creating, channel.data, form]);

  async function submit(values: ChannelFormValues) {
    const input = formToChannelInput(values);
    if (!input.test_model) input.test_model = values.models[0] ?? '';
    setSaving(true);
    try {
      if (channelId !== undefined) await updateChannel(channelId, input);
      else await createChannel(input, values.batch);
      void message.success(creating ? t('messages.created') : t('messages.updated'));
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
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle', { name: channel.data?.name ?? '' })}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('drawer.cancel')}</Button>
          <Button type="primary" loading={saving} disabled={!creating && !channel.data} onClick={() => form.submit()}>
            {t('drawer.submit')}
          </Button>
        </Flex>
      }
    >
      {!creating && channel.isLoading && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {!creating && channel.isError && <Alert type="error" showIcon title={t('messages.notFound')} description={channel.error.message} />}
      {(creating || channel.data) && (
        <Form form={form} layout="vertical" initialValues={emptyChannelForm} onFinish={(values) => void submit(values)} scrollToFirstError>
          <TypeSection />
          <IdentitySection />
          <Divider titlePlacement="start">{t('drawer.sectionModels')}</Divider>
          <ModelsSection channelId={channelId} />
          <MappingSection />
          <Divider titlePlacement="start">{t('drawer.sectionKey')}</Divider>
          <KeySection creating={creating} />
          <Divider titlePlacement="start">{t('drawer.sectionRouting')}</Divider>
          <RoutingSection />
        </Form>
      )}
    </Drawer>
  );
}
