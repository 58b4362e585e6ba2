import type { AnnouncementItem } from '@switchboard/contracts';
import { Card, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat } from '../../../../lib/date-time.ts';

/** new-api's announcement types and the dot colour each gets. */
const colors: Record<string, string> = { default: 'gray', ongoing: 'blue', success: 'green', warning: 'orange', error: 'red' };

/** The administrator's announcements (already newest first from the server), with their date and note. */
export function AnnouncementsPanel({ items }: { items: readonly AnnouncementItem[] }) {
  const { t } = useTranslation('home');
  return (
    <Card title={t('panels.announcements')} size="small" data-testid="panel-announcements">
      <Timeline
        items={items.map((item, index) => ({
          key: index,
          color: colors[item.type ?? 'default'] ?? 'gray',
          children: (
            <>
              <Typography.Paragraph style={{ marginBottom: 4, whiteSpace: 'pre-wrap' }}>{item.content}</Typography.Paragraph>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {dayjs(item.publishDate).format(dateTimeFormat)}
                {item.extra ? ` · ${item.extra}` : ''}
              </Typography.Text>
            </>
          ),
        }))}
      />
    </Card>
  );
}
