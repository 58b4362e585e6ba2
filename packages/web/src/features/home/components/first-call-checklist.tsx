import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { Button, Card, Flex, List, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSystemStatus } from '../../../lib/system-status.ts';
import { isAdmin, useStoredUser } from '../../../lib/use-stored-user.ts';
import { useFirstCallProgress } from '../api/first-call-progress.ts';
import { firstCallCurl, firstModelOf } from '../lib/first-call-example.ts';

interface ChecklistItem {
  id: string;
  done: boolean;
  action?: ReactNode;
  detail?: ReactNode;
}

/**
 * The administrator's way to the first call, on the home page until the gateway has answered one:
 * finish the setup, add a channel, make a token, call /v1 (a curl to paste, with this server's
 * address, the key and a model). Each step links to where it is done.
 */
export function FirstCallChecklist() {
  const { t } = useTranslation('setup');
  const user = useStoredUser();
  const status = useSystemStatus().data;
  const progress = useFirstCallProgress(isAdmin(user));
  const { token: colours } = theme.useToken();
  const data = progress.data;
  if (!isAdmin(user) || !data || data.called) return null;

  const address = status?.server_address || window.location.origin;
  const curl = firstCallCurl(address, data.token?.key, firstModelOf(data.channel?.models));
  const items: ChecklistItem[] = [
    ...(data.setupDone ? [] : [{ id: 'setup', done: false, action: <Link to="/setup">{t('checklist.setupAction')}</Link> }]),
    { id: 'channel', done: data.channel !== undefined, action: <Link to="/channel/add">{t('checklist.channelAction')}</Link> },
    { id: 'token', done: data.token !== undefined, action: <Link to="/token">{t('checklist.tokenAction')}</Link> },
    {
      id: 'call',
      done: false,
      detail: (
        <Typography.Paragraph copyable={{ text: curl }} style={{ marginBottom: 0 }} data-testid="first-call-curl">
          <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '8px 0 0', fontSize: 12 }}>{curl}</pre>
        </Typography.Paragraph>
      ),
      action: (
        <Button size="small" onClick={() => void progress.refetch()} loading={progress.isFetching} data-testid="first-call-check">
          {t('checklist.checkAgain')}
        </Button>
      ),
    },
  ];

  return (
    <Flex justify="center" style={{ padding: '24px 16px 0' }}>
      <Card title={t('checklist.title')} size="small" style={{ width: '100%', maxWidth: 1040 }} data-testid="first-call-checklist">
        <List
          dataSource={items}
          renderItem={(item) => (
            <List.Item key={item.id} data-testid={`checklist-${item.id}`} data-done={item.done} extra={item.done ? undefined : item.action}>
              <List.Item.Meta
                avatar={item.done ? <CheckCircleFilled style={{ color: colours.colorSuccess }} /> : <ClockCircleOutlined />}
                title={t(`checklist.${item.id}`)}
                description={
                  <>
                    {t(`checklist.${item.id}Help`)}
                    {!item.done && item.detail}
                  </>
                }
              />
            </List.Item>
          )}
        />
      </Card>
    </Flex>
  );
}
