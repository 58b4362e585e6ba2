import { CatalogueStatus, type ModelMetaView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { deleteModel, setModelStatus } from '../api/save-model.ts';

/** Edit, enable or disable, delete. */
export function ModelRowActions({ model, onEdit, onChanged }: { model: ModelMetaView; onEdit: (model: ModelMetaView) => void; onChanged: () => void }) {
  const { t } = useTranslation('model-catalogue');
  const { message } = App.useApp();
  const onError = (error: Error) => void message.error(error.message);
  const toggle = useMutation({
    mutationFn: () => setModelStatus(model.id, model.status === CatalogueStatus.enabled ? CatalogueStatus.hidden : CatalogueStatus.enabled),
    onSuccess: () => {
      void message.success(t('messages.done'));
      onChanged();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteModel(model.id),
    onSuccess: () => {
      void message.success(t('messages.deleted'));
      onChanged();
    },
    onError,
  });
  return (
    <Flex gap={4}>
      <Button size="small" onClick={() => onEdit(model)}>
        {t('actions.edit')}
      </Button>
      <Button size="small" loading={toggle.isPending} onClick={() => toggle.mutate()}>
        {model.status === CatalogueStatus.enabled ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Popconfirm title={t('confirmDelete', { name: model.model_name })} onConfirm={() => remove.mutate()} okButtonProps={{ danger: true }}>
        <Button size="small" danger loading={remove.isPending}>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
    </Flex>
  );
}
