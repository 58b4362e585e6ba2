import type { RedemptionView } from '@switchboard/contracts';
import type { TFunction } from 'i18next';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { formatUnixTime } from '../../../lib/date-time.ts';
import { RedemptionRowActions } from './redemption-row-actions.tsx';
import { RedemptionStatusTag } from './redemption-status-tag.tsx';

interface ColumnContext {
  t: TFunction<'redemptions'>;
  formatQuota: (quota: number) => string;
  onCopy: (text: string) => void;
  onEdit: (code: RedemptionView) => void;
  onChanged: () => void;
}

/** ID, name, status, quota, created, redeemer ('none' when 0), actions. */
export function redemptionColumns({ t, formatQuota, onCopy, onEdit, onChanged }: ColumnContext): TypedColumns<RedemptionView> {
  return [
    { title: t('columns.id'), dataIndex: 'id', width: 70, responsive: ['md'] },
    { title: t('columns.name'), dataIndex: 'name' },
    { title: t('columns.status'), dataIndex: 'status', render: (status: number) => <RedemptionStatusTag status={status} /> },
    { title: t('columns.quota'), dataIndex: 'quota', render: (quota: number) => formatQuota(quota) },
    {
      title: t('columns.createdTime'),
      dataIndex: 'created_time',
      render: (seconds: number) => formatUnixTime(seconds),
      responsive: ['md'],
    },
    { title: t('columns.usedBy'), dataIndex: 'used_user_id', responsive: ['md'], render: (userId: number) => (userId ? userId : t('none')) },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, code) => <RedemptionRowActions code={code} onCopy={onCopy} onEdit={onEdit} onChanged={onChanged} />,
    },
  ];
}
