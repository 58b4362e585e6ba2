import type { UserView } from '@switchboard/contracts';
import { Card, Col, Flex, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupTag } from '../../../components/group-tag.tsx';
import { RoleTag } from '../../../components/role-tag.tsx';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';

/** Who the user is and the three numbers they look for first: balance, historical use, requests. */
export function OverviewCard({ user }: { user: UserView }) {
  const { t } = useTranslation('settings');
  const formatQuota = useQuotaFormatter();
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="personal-overview">
      <Flex align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {user.display_name || user.username}
        </Typography.Title>
        <RoleTag role={user.role} />
        <GroupTag group={user.group} />
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.balance')} value={formatQuota(user.quota)} valueRender={(node) => <QuotaHover quota={user.quota}>{node}</QuotaHover>} />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic
            title={t('personal.used')}
            value={formatQuota(user.used_quota)}
            valueRender={(node) => <QuotaHover quota={user.used_quota}>{node}</QuotaHover>}
          />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.requests')} value={user.request_count} />
        </Col>
      </Row>
    </Card>
  );
}
