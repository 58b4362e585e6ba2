import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { Redemption } from '../api/redemption-types.ts';
import { RedemptionRowActions } from './redemption-row-actions.tsx';
import { RedemptionStatusTag } from './redemption-status-tag.tsx';

interface ColumnContext {
  t: TFunction<'redemptions'>;
  formatQuota: (quota: number) => string;
  onCopy: (text: string) => void;
  onEdit: (code: Redemption) => void;
  onChanged: () => void;
}

/** ID, name, status, quota, created, redeemer ('none' when 0), actions. */
export function redemptionColumns({ t, formatQuota, onCopy, onEdit, onChanged }: ColumnContext): ColumnsType<Redemption> {
  return [
    { title: t('columns.id'), dataIndex: 'id', width: 70 },
    { title: t('columns.name'), dataIndex: 'name' },
    { title: t('columns.status'), dataIndex: 'status', render: (status: number) => <RedemptionStatusTag status={status} /> },
    { title: t('columns.quota'), dataIndex: 'quota', render: (quota: number) => formatQuota(quota) },
    {
      title: t('columns.createdTime'),
      dataIndex: 'created_time',
      render: (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss'),
      responsive: ['md'],
    },
    { title: t('columns.usedBy'), dataIndex: 'used_user_id', render: (userId: number) => (userId ? userId : t('none')) },
    {
      title: t('columns.actions'),
      key: 'actions',
      render: (_value, code) => <RedemptionRowActions code={code} onCopy={onCopy} onEdit={onEdit} onChanged={onChanged} />,
    },
  ];
}
