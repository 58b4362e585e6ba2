import { ApiOutlined, DollarOutlined, KeyOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatUnixTime } from '../../../lib/date-time.ts';
import { logoOf, systemNameOf, useStatusValue } from '../../../lib/system-status.ts';

/** What a fresh install shows: what the gateway is, where to call it, and where to go next. */
export function DefaultHome() {
  const { t } = useTranslation('home');
  const status = useStatusValue();
  const address = status?.server_address || window.location.origin;
  return (
    <Flex vertical gap={24} style={{ padding: '48px 16px', maxWidth: 1040, margin: '0 auto' }}>
      <Flex vertical align="center" gap={12} style={{ textAlign: 'center' }}>
        <img src={logoOf(status)} alt="" width={72} height={72} style={{ objectFit: 'contain' }} />
        <Typography.Title style={{ margin: 0 }}>{systemNameOf(status)}</Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 16, maxWidth: 640 }}>
          {t('subtitle')}
        </Typography.Paragraph>
        <Flex gap={12} wrap justify="center">
          <Link to="/token">
            <Button type="primary" size="large" icon={<KeyOutlined />}>
              {t('getStarted')}
            </Button>
          </Link>
          <Link to="/pricing">
            <Button size="large" icon={<DollarOutlined />}>
              {t('viewPricing')}
            </Button>
          </Link>
        </Flex>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('endpoint')} size="small">
            <Typography.Paragraph copyable={{ text: `${address}/v1` }} style={{ marginBottom: 8 }}>
              <ApiOutlined /> <Typography.Text code>{`${address}/v1`}</Typography.Text>
            </Typography.Paragraph>
            <Typography.Text type="secondary">{t('endpointHint')}</Typography.Text>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('system')} size="small">
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'name', label: t('name'), children: systemNameOf(status) },
                { key: 'version', label: t('version'), children: status?.version ?? '-' },
                { key: 'started', label: t('started'), children: formatUnixTime(status?.start_time ?? 0) },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
