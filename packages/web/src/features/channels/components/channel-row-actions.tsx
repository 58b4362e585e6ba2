import { ChannelStatus, type ChannelView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Dropdown, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyChannel } from '../api/copy-channel.ts';
import { deleteChannel } from '../api/delete-channel.ts';
import { testChannel } from '../api/test-channel.ts';
import { updateChannelField } from '../api/update-channel.ts';
import { splitList } from '../lib/channel-form.ts';
import { RowActionsBar } from '../../../components/row-actions-bar.tsx';
import { UnpricedModelTag } from '../../../components/unpriced-model-tag.tsx';
import { setPricePath } from '../../../lib/unpriced-models.ts';
import { useNavigate } from 'react-router';

interface ChannelRowActionsProps {
  channel: ChannelView;
  onEdit: (channel: ChannelView) => void;
  onChanged: () => void;
}

/** Test (with a model dropdown), delete, enable or disable, edit, copy. */
export function ChannelRowActions({ channel, onEdit, onChanged }: ChannelRowActionsProps) {
  const { t } = useTranslation('channels');
  const { message, modal } = App.useApp();
  const onError = (error: Error) => void message.error(error.message);
  const models = splitList(channel.models);
  const navigate = useNavigate();

  const test = useMutation({
    mutationFn: (model?: string) => testChannel(channel.id, model),
    onSuccess: (outcome) => {
      // Passing upstream is not enough: a model without a price is refused to every caller.
      if (outcome.unpriced)
        void message.warning({
          content: (
            <span data-testid="test-unpriced">
              {outcome.message} <UnpricedModelTag model={outcome.model} onSetPrice={() => void navigate(setPricePath(outcome.model))} />
            </span>
          ),
          duration: 10,
        });
      else void message.success(t('messages.tested', { name: channel.name, time: outcome.seconds.toFixed(2) }));
      onChanged();
    },
    onError: (error: Error) => {
      void message.error(error.message);
      onChanged();
    },
  });
  const toggle = useMutation({
    mutationFn: () =>
      updateChannelField(channel.id, { status: channel.status === ChannelStatus.enabled ? ChannelStatus.manuallyDisabled : ChannelStatus.enabled }),
    onSuccess: () => {
      void message.success(t('messages.done'));
      onChanged();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteChannel(channel.id),
    onSuccess: () => {
      void message.success(t('messages.deleted'));
      onChanged();
    },
    onError,
  });
  const copy = useMutation({
    // The console never holds a channel's key, so the server makes the copy.
    mutationFn: () => copyChannel(channel.id, t('copySuffix')),
    onSuccess: () => {
      void message.success(t('messages.copied'));
      onChanged();
    },
    onError: (error: Error) => void message.error(t('messages.copyFailed', { reason: error.message })),
  });

  return (
    <RowActionsBar>
      <Space.Compact size="small">
        <Button size="small" loading={test.isPending} onClick={() => test.mutate(undefined)}>
          {t('actions.test')}
        </Button>
        <Dropdown
          trigger={['click']}
          disabled={models.length === 0 || test.isPending}
          menu={{
            items: models.map((model) => ({ key: model, label: model })),
            onClick: ({ key }) => test.mutate(key),
            style: { maxHeight: 320, overflowY: 'auto' },
          }}
        >
          <Button size="small" aria-label={t('actions.testModel')}>
            ▾
          </Button>
        </Dropdown>
      </Space.Compact>
      <Button size="small" loading={toggle.isPending} onClick={() => toggle.mutate()}>
        {channel.status === ChannelStatus.enabled ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Button size="small" onClick={() => onEdit(channel)}>
        {t('actions.edit')}
      </Button>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'copy', label: t('actions.copy') },
            { key: 'delete', label: t('actions.delete'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'copy') modal.confirm({ title: t('confirm.copy', { name: channel.name }), onOk: () => copy.mutateAsync().catch(() => undefined) });
            else
              modal.confirm({
                title: t('confirm.delete', { name: channel.name }),
                okButtonProps: { danger: true },
                onOk: () => remove.mutateAsync().catch(() => undefined),
              });
          },
        }}
      >
        <Button size="small" loading={copy.isPending || remove.isPending}>
          {t('actions.more')}
        </Button>
      </Dropdown>
    </RowActionsBar>
  );
}
