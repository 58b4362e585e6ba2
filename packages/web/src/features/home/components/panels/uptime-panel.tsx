import type { UptimeGroupStatus } from '@switchboard/contracts';
import { Card, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Uptime Kuma's heartbeat statuses: 0 down, 1 up, 2 pending, 3 maintenance. */
const statusLook: Record<number, { key: string; color: string }> = {
  0: { key: 'down', color: 'error' },
  1: { key: 'up', color: 'success' },
  2: { key: 'pending', color: 'warning' },
  3: { key: 'maintenance', color: 'processing' },
};

/** The monitors of the configured Uptime Kuma status pages, per group, with their 24-hour uptime. */
export function UptimePanel({ groups }: { groups: readonly UptimeGroupStatus[] }) {
  const { t } = useTranslation('home');
  return (
    <Card title={t('panels.uptime')} size="small" data-testid="panel-uptime">
      <Flex vertical gap={12}>
        {groups.map((group) => (
          <div key={group.categoryName}>
            <Typography.Text strong>{group.categoryName}</Typography.Text>
            {group.monitors.length === 0 ? (
              <Typography.Paragraph type="secondary">{t('panels.uptimeUnreachable')}</Typography.Paragraph>
            ) : (
              group.monitors.map((monitor) => {
                const look = statusLook[monitor.status] ?? statusLook[0]!;
                return (
                  <Flex key={`${monitor.group ?? ''}/${monitor.name}`} justify="space-between" align="center" gap={8} style={{ padding: '4px 0' }}>
                    <Typography.Text>{monitor.name}</Typography.Text>
                    <span>
                      <Typography.Text type="secondary">{`${(monitor.uptime * 100).toFixed(2)}%`}</Typography.Text>{' '}
                      <Tag color={look.color}>{t(`panels.status.${look.key}`)}</Tag>
                    </span>
                  </Flex>
                );
              })
            )}
          </div>
        ))}
      </Flex>
    </Card>
  );
}
