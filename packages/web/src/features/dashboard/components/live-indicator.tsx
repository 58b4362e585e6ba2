import { Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { liveRefreshSeconds } from '../lib/live-refresh.ts';

/** Says that the charts follow new usage, and when they last did. */
export function LiveIndicator({ updatedAt }: { updatedAt: number }) {
  const { t } = useTranslation('dashboard');
  return (
    <span data-testid="dashboard-live">
      <Tag color="green">{t('live.on', { seconds: liveRefreshSeconds })}</Tag>
      {updatedAt > 0 && <Typography.Text type="secondary">{t('live.updated', { time: dayjs(updatedAt).format('HH:mm:ss') })}</Typography.Text>}
    </span>
  );
}
