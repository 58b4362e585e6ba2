import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Input, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteChannels } from '../api/delete-channels.ts';
import { fixAbilities } from '../api/fix-abilities.ts';
import { tagChannels } from '../api/tag-channels.ts';

/** Batch mode: delete selected, set a tag on the selected, repair database consistency. */
export function BatchActions({ selectedIds, onDone }: { selectedIds: number[]; onDone: () => void }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const [tagOpen, setTagOpen] = useState(false);
  const [tag, setTag] = useState('');
  const onError = (error: Error) => void message.error(error.message);

  const remove = useMutation({
    mutationFn: () => deleteChannels(selectedIds),
    onSuccess: (count) => {
      void message.success(t('messages.deletedCount', { count }));
      onDone();
    },
    onError,
  });
  const setTagMutation = useMutation({
    mutationFn: () => tagChannels(selectedIds, tag.trim()),
    onSuccess: (count) => {
      void message.success(t('messages.taggedCount', { count }));
      setTagOpen(false);
      setTag('');
      onDone();
    },
    onError,
  });
  const fix = useMutation({
    mutationFn: fixAbilities,
    onSuccess: (count) => {
      void message.success(t('messages.fixedCount', { count }));
      onDone();
    },
    onError,
  });

  function openTag() {
    if (selectedIds.length === 0) {
      void message.warning(t('messages.selectToTag'));
      return;
    }
    setTagOpen(true);
  }

  return (
    <Flex gap={8} wrap align="center">
      {selectedIds.length === 0 ? (
        <Button danger onClick={() => void message.warning(t('messages.selectToDelete'))}>
          {t('batch.delete')}
        </Button>
      ) : (
        <Popconfirm title={t('confirm.deleteSelected', { count: selectedIds.length })} onConfirm={() => remove.mutate()} okButtonProps={{ danger: true }}>
          <Button danger loading={remove.isPending}>
            {t('batch.delete')}
          </Button>
        </Popconfirm>
      )}
      <Button onClick={openTag}>{t('batch.setTag')}</Button>
      <Popconfirm
        title={t('confirm.fix')}
        description={<Alert type="warning" showIcon title={t('batch.fixWarning')} style={{ maxWidth: 320 }} />}
        onConfirm={() => fix.mutate()}
      >
        <Button loading={fix.isPending}>{t('batch.fix')}</Button>
      </Popconfirm>
      <Modal
        open={tagOpen}
        title={t('batch.setTagTitle', { count: selectedIds.length })}
        onCancel={() => setTagOpen(false)}
        confirmLoading={setTagMutation.isPending}
        onOk={() => {
          if (!tag.trim()) {
            void message.warning(t('messages.tagEmpty'));
            return;
          }
          setTagMutation.mutate();
        }}
      >
        <Input
          placeholder={t('batch.tagPlaceholder')}
          value={tag}
          onChange={(event) => setTag(event.target.value)}
          onPressEnter={() => tag.trim() && setTagMutation.mutate()}
        />
      </Modal>
    </Flex>
  );
}
