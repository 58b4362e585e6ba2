import type { FaqItem } from '@switchboard/contracts';
import { Card, Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Questions and answers the administrator wrote, answers folded. */
export function FaqPanel({ items }: { items: readonly FaqItem[] }) {
  const { t } = useTranslation('home');
  return (
    <Card title={t('panels.faq')} size="small" data-testid="panel-faq">
      <Collapse
        ghost
        items={items.map((item, index) => ({
          key: index,
          label: item.question,
          children: <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{item.answer}</Typography.Paragraph>,
        }))}
      />
    </Card>
  );
}
