import { RedemptionStatus, type RedemptionView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Popconfirm, Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { deleteRedemption } from '../api/delete-redemption.ts';
import { setRedemptionStatus } from '../api/update-redemption.ts';
import { RowActionsBar } from '../../../components/row-actions-bar.tsx';

interface RedemptionRowActionsProps {
  code: RedemptionView;
  onCopy: (text: string) => void;
  onEdit: (code: RedemptionView) => void;
  onChanged: () => void;
}

/** View, copy, delete, enable or disable (not once used), edit (only while unused). */
export function RedemptionRowActions({ code, onCopy, onEdit, onChanged }: RedemptionRowActionsProps) {
  const { t } = useTranslation('redemptions');
  const { message } = App.useApp();
  const used = code.status === RedemptionStatus.used;
  const onError = (error: Error) => void message.error(error.message);
  const toggle = useMutation({
    mutationFn: () => setRedemptionStatus(code.id, code.status === 1 ? 2 : 1),
    onSuccess: () => {
      void message.success(t('messages.done'));
      onChanged();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteRedemption(code.id),
    onSuccess: () => {
      void message.success(t('messages.deleted'));
      onChanged();
    },
    onError,
  });
  return (
    <RowActionsBar>
      <Popover trigger="click" content={<Typography.Text code>{code.key}</Typography.Text>}>
        <Button size="small">{t('actions.view')}</Button>
      </Popover>
      <Button size="small" onClick={() => onCopy(code.key)}>
        {t('actions.copy')}
      </Button>
      <Popconfirm title={t('confirmDelete', { name: code.name })} onConfirm={() => remove.mutate()} okButtonProps={{ danger: true }}>
        <Button size="small" danger loading={remove.isPending}>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
      <Button size="small" disabled={used} loading={toggle.isPending} onClick={() => toggle.mutate()}>
        {code.status === 1 ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Button size="small" disabled={used} onClick={() => onEdit(code)}>
        {t('actions.edit')}
      </Button>
    </RowActionsBar>
  );
}
