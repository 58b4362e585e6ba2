import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QuotaDataRow } from '@switchboard/contracts';

/** Totals over the range: consumption, calls, tokens. */
export function SummaryRow({ rows, formatQuota }: { rows: QuotaDataRow[]; formatQuota: (quota: number) => string }) {
  const { t } = useTranslation('dashboard');
  const quota = rows.reduce((sum, row) => sum + row.quota, 0);
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  const tokens = rows.reduce((sum, row) => sum + row.token_used, 0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={8}>
        <Card>
          <Statistic title={t('summary.quota')} value={formatQuota(quota)} />
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
