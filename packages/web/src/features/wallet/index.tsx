import { Col, Row } from 'antd';
import { useStatusValue } from '../../lib/system-status.ts';
import { BalanceCard } from './components/balance-card.tsx';
import { OnlineTopUpCard } from './components/online-topup-card.tsx';
import { RedeemCard } from './components/redeem-card.tsx';

/** `/topup`: balance, redeem a code, and top up online when a payment gateway is configured. */
export default function WalletPage() {
  const online = useStatusValue()?.enable_online_topup === true;
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <BalanceCard />
      </Col>
      <Col xs={24} lg={online ? 12 : 24}>
        <RedeemCard />
      </Col>
      {online && (
        <Col xs={24} lg={12}>
          <OnlineTopUpCard />
        </Col>
      )}
    </Row>
  );
}
