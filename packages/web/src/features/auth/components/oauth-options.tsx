import { GithubOutlined, WechatOutlined } from '@ant-design/icons';
import { App, Button, Divider, Flex, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TelegramLoginWidget } from '../../../components/telegram-login-widget.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { startOAuth, type OAuthProvider } from '../../../lib/oauth-start.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';
import { useStatusValue } from '../../../lib/system-status.ts';
import { telegramLogin, type TelegramAuthData } from '../api/telegram-login.ts';
import { WechatLoginModal } from './wechat-login-modal.tsx';

/** LinuxDO has no icon in the antd set; its initial keeps the buttons the same size. */
function LinuxDoMark() {
  return <span style={{ fontWeight: 700, fontSize: 15 }}>L</span>;
}

/** The third-party logins the administrator enabled, under an 'or' divider. */
export function OAuthOptions({ onLoggedIn }: { onLoggedIn: (user: LoginAnswer) => void }) {
  const { t, i18n } = useTranslation('auth');
  const status = useStatusValue();
  const { message } = App.useApp();
  const [wechatOpen, setWechatOpen] = useState(false);

  if (!status) return null;
  const anyEnabled = status.github_oauth || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth;
  if (!anyEnabled) return null;

  const start = (provider: OAuthProvider, clientId: string) => {
    startOAuth(provider, clientId).catch((error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error)));
  };
  const onTelegram = (data: unknown) => {
    telegramLogin(data as TelegramAuthData, i18n.language)
      .then(onLoggedIn)
      .catch((error: unknown) => void message.error(error instanceof ApiError ? error.message : String(error)));
  };

  return (
    <>
      <Divider plain>{t('login.or')}</Divider>
      <Flex justify="center" align="center" gap={12} wrap>
        {status.github_oauth && (
          <Tooltip title={t('login.withGitHub')}>
            <Button
              shape="circle"
              size="large"
              icon={<GithubOutlined />}
              aria-label={t('login.withGitHub')}
              onClick={() => start('github', status.github_client_id)}
            />
          </Tooltip>
        )}
        {status.linuxdo_oauth && (
          <Tooltip title={t('login.withLinuxDo')}>
            <Button
              shape="circle"
              size="large"
              icon={<LinuxDoMark />}
              aria-label={t('login.withLinuxDo')}
              onClick={() => start('linuxdo', status.linuxdo_client_id)}
            />
          </Tooltip>
        )}
        {status.wechat_login && (
          <Tooltip title={t('login.withWeChat')}>
            <Button
              shape="circle"
              size="large"
              icon={<WechatOutlined style={{ color: '#07c160' }} />}
              aria-label={t('login.withWeChat')}
              onClick={() => setWechatOpen(true)}
            />
          </Tooltip>
        )}
        {status.telegram_oauth && status.telegram_bot_name && <TelegramLoginWidget botName={status.telegram_bot_name} onAuth={onTelegram} />}
      </Flex>
      <WechatLoginModal open={wechatOpen} qrCodeUrl={status.wechat_qrcode} onClose={() => setWechatOpen(false)} onLoggedIn={onLoggedIn} />
    </>
  );
}
