import { GithubOutlined, MailOutlined, SendOutlined, WechatOutlined } from '@ant-design/icons';
import type { UserView } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, List, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TelegramLoginWidget } from '../../../components/telegram-login-widget.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { startOAuth, type OAuthProvider } from '../../../lib/oauth-start.ts';
import { useStatusValue } from '../../../lib/system-status.ts';
import { telegramBindUrl } from '../api/bind-telegram.ts';
import { selfKey } from '../api/get-self.ts';
import { EmailBindModal } from './email-bind-modal.tsx';
import { WechatBindModal } from './wechat-bind-modal.tsx';

interface BindingRow {
  key: string;
  icon: ReactNode;
  label: string;
  value: string;
  action: ReactNode;
  /** E-mail can be changed once bound; the other accounts stay bound to the first one. */
  rebindable?: boolean;
}

/** E-mail, WeChat, GitHub, Telegram and LinuxDO: the bound id, or a way to bind when the login is enabled. */
export function BindingsCard({ user }: { user: UserView }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const status = useStatusValue();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'email' | 'wechat'>();

  const refresh = () => {
    setDialog(undefined);
    void queryClient.invalidateQueries({ queryKey: selfKey });
  };
  const oauth = (provider: OAuthProvider, clientId: string) =>
    startOAuth(provider, clientId).catch((error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error)));
  const bindButton = (enabled: boolean | undefined, onClick: () => void, testId: string, label = t('bindings.bind')) => (
    <Button size="small" disabled={!enabled} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );

  const rows: BindingRow[] = [
    {
      key: 'email',
      icon: <MailOutlined />,
      label: t('bindings.email'),
      value: user.email,
      action: bindButton(true, () => setDialog('email'), 'bind-email-open', t(user.email ? 'bindings.change' : 'bindings.bind')),
      rebindable: true,
    },
    {
      key: 'wechat',
      icon: <WechatOutlined />,
      label: t('bindings.wechat'),
      value: user.wechat_id,
      action: bindButton(status?.wechat_login, () => setDialog('wechat'), 'bind-wechat-open'),
    },
    {
      key: 'github',
      icon: <GithubOutlined />,
      label: 'GitHub',
      value: user.github_id,
      action: bindButton(status?.github_oauth, () => void oauth('github', status?.github_client_id ?? ''), 'bind-github'),
    },
    {
      key: 'telegram',
      icon: <SendOutlined />,
      label: 'Telegram',
      value: user.telegram_id,
      action:
        status?.telegram_oauth && status.telegram_bot_name ? (
          <TelegramLoginWidget botName={status.telegram_bot_name} authUrl={telegramBindUrl} />
        ) : (
          bindButton(false, () => undefined, 'bind-telegram')
        ),
    },
    {
      key: 'linuxdo',
      icon: <span style={{ fontWeight: 700 }}>L</span>,
      label: 'LinuxDO',
      value: user.linux_do_id,
      action: bindButton(status?.linuxdo_oauth, () => void oauth('linuxdo', status?.linuxdo_client_id ?? ''), 'bind-linuxdo'),
    },
  ];

  return (
    <Card size="small" title={t('bindings.title')} style={{ marginBottom: 16 }} data-testid="personal-bindings">
      <List
        dataSource={rows}
        renderItem={(row) => (
          <List.Item key={row.key} actions={row.value && !row.rebindable ? [] : [row.action]} data-testid={`binding-${row.key}`}>
            <List.Item.Meta
              avatar={row.icon}
              title={row.label}
              description={<Typography.Text type={row.value ? undefined : 'secondary'}>{row.value || t('bindings.notBound')}</Typography.Text>}
            />
          </List.Item>
        )}
      />
      <EmailBindModal open={dialog === 'email'} onClose={() => setDialog(undefined)} onBound={refresh} />
      <WechatBindModal open={dialog === 'wechat'} qrCodeUrl={status?.wechat_qrcode ?? ''} onClose={() => setDialog(undefined)} onBound={refresh} />
    </Card>
  );
}
