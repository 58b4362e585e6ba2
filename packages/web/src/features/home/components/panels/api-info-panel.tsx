import type { ApiInfoItem } from '@switchboard/contracts';
import { Avatar, Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** new-api's colour names (Semi UI's palette) as CSS colours. */
const palette: Record<string, string> = {
  blue: '#1677ff',
  green: '#52c41a',
  cyan: '#13c2c2',
  purple: '#722ed1',
  pink: '#eb2f96',
  red: '#f5222d',
  orange: '#fa8c16',
  amber: '#faad14',
  yellow: '#fadb14',
  lime: '#a0d911',
  'light-green': '#95de64',
  teal: '#08979c',
  'light-blue': '#69b1ff',
  indigo: '#2f54eb',
  violet: '#9254de',
  grey: '#8c8c8c',
  slate: '#595959',
};

/** The addresses the administrator publishes, each with its route and a note, copyable. */
export function ApiInfoPanel({ items }: { items: readonly ApiInfoItem[] }) {
  const { t } = useTranslation('home');
  return (
    <Card title={t('panels.apiInfo')} size="small" data-testid="panel-api-info">
      <List
        dataSource={[...items]}
        renderItem={(item) => (
          <List.Item>
            <List.Item.Meta
              avatar={<Avatar style={{ backgroundColor: palette[item.color] ?? palette.blue }}>{item.route.slice(0, 1)}</Avatar>}
              title={
                <Typography.Text copyable={{ text: item.url }} code>
                  {item.url}
                </Typography.Text>
              }
              description={`${item.route} · ${item.description}`}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
