import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QuotaDataRow } from '@switchboard/contracts';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';

/** Totals over the range: consumption, calls, tokens. */
export function SummaryRow({ rows }: { rows: QuotaDataRow[] }) {
  const { t } = useTranslation('dashboard');
  const formatQuota = useQuotaFormatter();
  const quota = rows.reduce((sum, row) => sum + row.quota, 0);
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  const tokens = rows.reduce((sum, row) => sum + row.token_used, 0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={8}>
        <Card data-testid="dashboard-quota">
          <Statistic title={t('summary.quota')} value={formatQuota(quota)} valueRender={(node) => <QuotaHover quota={quota}>{node}</QuotaHover>} />
        </Card>
      </Col>
      <Col xs={12} sm={8}>
        <Card>
          <Statistic title={t('summary.count')} value={count} />
        </Card>
      </Col>
      <Col xs={12} sm={8}>
        <Card>
          <Statistic title={t('summary.tokens')} value={tokens} />
        </Card>
      </Col>
    </Row>
  );
}
