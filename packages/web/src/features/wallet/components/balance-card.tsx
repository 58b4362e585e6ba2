import { Alert, Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { useSelf } from '../api/get-self.ts';

/** Current balance, what was spent, and how many requests were made. */
export function BalanceCard() {
  const { t } = useTranslation('wallet');
  const formatQuota = useQuotaFormatter();
  const self = useSelf();
  return (
    <Card title={t('balance.title')}>
      {self.isLoading && <Skeleton active paragraph={{ rows: 1 }} />}
      {self.isError && <Alert type="error" showIcon title={t('balance.failed', { message: self.error.message })} />}
      {self.data && (
        <Row gutter={16}>
          <Col xs={24} sm={8}>
            <Statistic
              title={t('balance.quota')}
              value={formatQuota(self.data.quota)}
              valueRender={(node) => <QuotaHover quota={self.data.quota}>{node}</QuotaHover>}
              data-testid="wallet-balance"
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t('balance.used')}
              value={formatQuota(self.data.used_quota)}
              valueRender={(node) => <QuotaHover quota={self.data.used_quota}>{node}</QuotaHover>}
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic title={t('balance.requests')} value={self.data.request_count} />
          </Col>
        </Row>
      )}
    </Card>
  );
}
