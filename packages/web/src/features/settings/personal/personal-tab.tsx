import { Alert, Col, Row, Skeleton } from 'antd';
import { useSelf } from '../api/get-self.ts';
import { BindingsCard } from './bindings-card.tsx';
import { BudgetCard } from './budget-card.tsx';
import { InvitationCard } from './invitation-card.tsx';
import { ModelsCard } from './models-card.tsx';
import { PasskeysCard } from './passkeys-card.tsx';
import { OverviewCard } from './overview-card.tsx';
import { SecurityCard } from './security-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

/** Everyone's own page: balance, models, invitations, bindings and account security. */
export function PersonalTab() {
  const self = useSelf();
  if (self.isError) return <Alert type="error" showIcon title={self.error.message} />;
  if (!self.data) return <Skeleton active />;
  const user = self.data;
  return (
    <>
      <OverviewCard user={user} />
      <ModelsCard />
      <BudgetCard />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <InvitationCard user={user} />
        </Col>
        <Col xs={24} lg={12}>
          <BindingsCard user={user} />
        </Col>
      </Row>
      <SecurityCard username={user.username} />
      <TwoFactorCard />
      <PasskeysCard />
    </>
  );
}
