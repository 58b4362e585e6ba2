import { Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { logoOf, systemNameOf, useStatusValue } from '../../../lib/system-status.ts';

/** The centred card every account page (login, register, reset) sits in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const status = useStatusValue();
  const { token } = theme.useToken();
  // A plain panel rather than antd's Card: Card pulls in Tabs, weight the first screen does not need.
  const panel = {
    width: '100%',
    maxWidth: 420,
    padding: 24,
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusLG,
  };
  return (
    <Flex justify="center" style={{ padding: '48px 12px' }}>
      <div style={panel} data-testid="auth-card">
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          <img src={logoOf(status)} alt={systemNameOf(status)} width={48} height={48} style={{ objectFit: 'contain' }} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        </Flex>
        {children}
      </div>
    </Flex>
  );
}
