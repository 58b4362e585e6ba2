import { Alert, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLogPayload } from '../api/get-log-payload.ts';
import { prettyBody } from '../lib/pretty-body.ts';

const bodyStyle = { maxHeight: 360, overflow: 'auto', margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;

function Body({ text, truncated, testId }: { text: string; truncated: boolean; testId: string }) {
  const { t } = useTranslation('logs');
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {truncated && <Tag color="orange">{t('payload.truncated')}</Tag>}
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        <pre style={bodyStyle} data-testid={testId}>
          {prettyBody(text)}
        </pre>
      </Typography.Paragraph>
    </Space>
  );
}

/** An administrator's view of a log row's stored bodies; nothing when none was stored. */
export function LogPayload({ logId }: { logId: number }) {
  const { t } = useTranslation('logs');
  const payload = useLogPayload(logId);
  if (payload.isPending) return <Spin size="small" />;
  if (payload.isError) return <Alert type="error" showIcon title={t('payload.loadFailed', { message: payload.error.message })} />;
  if (!payload.data) return null;
  const { data } = payload;
  return (
    <Descriptions size="small" column={1} bordered style={{ marginTop: 12 }} data-testid="log-payload">
      <Descriptions.Item label={t('payload.request')}>
        <Body text={data.request_body} truncated={data.request_truncated} testId="log-payload-request" />
      </Descriptions.Item>
      <Descriptions.Item label={data.is_stream ? t('payload.streamedResponse') : t('payload.response')}>
        <Body text={data.response_body} truncated={data.response_truncated} testId="log-payload-response" />
      </Descriptions.Item>
    </Descriptions>
  );
}
