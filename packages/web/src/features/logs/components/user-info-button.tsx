import { Button, Descriptions, Popover, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QuotaAmount } from '../../../components/quota-amount.tsx';
import { useLogUser } from '../api/get-user.ts';

/** A username that shows the user's balance, usage and request count on click (administrators). */
export function UserInfoButton({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation('logs');
  const [open, setOpen] = useState(false);
  const user = useLogUser(userId, open);
  const content = user.isLoading ? (
    <Spin size="small" />
  ) : user.isError ? (
    <Typography.Text type="danger">{user.error.message}</Typography.Text>
  ) : user.data ? (
    <Descriptions size="small" column={1} style={{ minWidth: 220 }}>
      <Descriptions.Item label={t('user.username')}>{user.data.username}</Descriptions.Item>
      <Descriptions.Item label={t('user.quota')}>
        <QuotaAmount quota={user.data.quota} />
      </Descriptions.Item>
      <Descriptions.Item label={t('user.usedQuota')}>
        <QuotaAmount quota={user.data.used_quota} />
      </Descriptions.Item>
      <Descriptions.Item label={t('user.requestCount')}>{user.data.request_count}</Descriptions.Item>
    </Descriptions>
  ) : null;
  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} title={t('user.title')} content={content}>
      <Button type="link" size="small" style={{ padding: 0 }}>
        {username || `#${userId}`}
      </Button>
    </Popover>
  );
}
