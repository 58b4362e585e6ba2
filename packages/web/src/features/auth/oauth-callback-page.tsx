import { App, Flex, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { readStoredUser } from '../../lib/stored-user.ts';
import { completeOAuth } from './api/oauth-callback.ts';
import { useCompleteLogin } from './lib/use-complete-login.ts';

/**
 * /oauth/github and /oauth/linuxdo: the provider sends the browser back here with code and state.
 * Shows 'processing', exchanges the code once (codes are single-use, so no retries), then goes to
 * the settings page after a binding, home after a login, or back where it came from on failure.
 */
export default function OAuthCallbackPage() {
  const { t } = useTranslation('auth');
  const { provider = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const completeLogin = useCompleteLogin();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = search.get('code') ?? '';
    const state = search.get('state') ?? '';
    completeOAuth(provider, code, state)
      .then((outcome) => {
        if (outcome.kind === 'bound') {
          void message.success(t('oauth.bound'));
          void navigate('/setting', { replace: true });
        } else completeLogin(outcome.user, { to: '/' });
      })
      .catch((error: unknown) => {
        void message.error(error instanceof ApiError ? error.message : String(error));
        void navigate(readStoredUser() ? '/setting' : '/login', { replace: true });
      });
  }, [provider, search, navigate, message, t, completeLogin]);

  return (
    <Flex vertical align="center" gap={16} style={{ padding: 96 }}>
      <Spin size="large" />
      <Typography.Text data-testid="oauth-processing">{t('oauth.processing')}</Typography.Text>
    </Flex>
  );
}
