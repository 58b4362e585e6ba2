import { useMutation } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { setTagStatus } from '../api/set-tag-status.ts';
import type { TagRow } from '../lib/tag-rows.ts';
import { RowActionsBar } from '../../../components/row-actions-bar.tsx';

/** Enable all, disable all and edit for a tag row. */
export function TagRowActions({ row, onEdit, onChanged }: { row: TagRow; onEdit: (row: TagRow) => void; onChanged: () => void }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const status = useMutation({
    mutationFn: (enabled: boolean) => setTagStatus(row.tag, enabled),
    onSuccess: () => {
      void message.success(t('messages.done'));
      onChanged();
    },
    onError: (error: Error) => void message.error(error.message),
  });
  return (
    <RowActionsBar>
      <Popconfirm title={t('confirm.enableTag', { tag: row.tag })} onConfirm={() => status.mutate(true)}>
        <Button size="small" loading={status.isPending}>
          {t('actions.enableAll')}
        </Button>
      </Popconfirm>
      <Popconfirm title={t('confirm.disableTag', { tag: row.tag })} onConfirm={() => status.mutate(false)}>
        <Button size="small" danger loading={status.isPending}>
          {t('actions.disableAll')}
        </Button>
      </Popconfirm>
      <Button size="small" onClick={() => onEdit(row)}>
        {t('actions.edit')}
      </Button>
    </RowActionsBar>
  );
}
