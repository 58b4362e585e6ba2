import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';

/**
 * Turnstile state for a form: whether the widget is needed, its token, and `ready()` which says
 * 'Turnstile is checking…' and returns false while a needed token is still missing.
 */
export function useTurnstileToken() {
  const status = useStatusValue();
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const [token, setToken] = useState('');
  const enabled = Boolean(status?.turnstile_check && status.turnstile_site_key);
  const ready = () => {
    if (enabled && !token) {
      void message.info(t('turnstile.checking'));
      return false;
    }
    return true;
  };
  return { enabled, siteKey: status?.turnstile_site_key ?? '', token, setToken, ready };
}
