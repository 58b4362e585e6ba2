import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';

/**
 * Turnstile state for a form: whether the widget is needed, its token, and `ready()` which says
 * 'Turnstile is checking…' and returns false while a needed token is still missing. The widget is
 * needed when TurnstileCheckEnabled is on, or once the server asked this form for it (`demand`: a
 * login from an address past its failure limit, answered with `turnstile_required`).
 */
export function useTurnstileToken() {
  const status = useStatusValue();
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const [token, setToken] = useState('');
  const [demanded, setDemanded] = useState(false);
  // A new key remounts the widget: a token verifies only once, so a refused attempt needs a fresh one.
  const [widgetKey, setWidgetKey] = useState(0);
  const siteKey = status?.turnstile_site_key ?? '';
  const enabled = Boolean(siteKey && (status?.turnstile_check || demanded));
  const ready = () => {
    if (enabled && !token) {
      void message.info(t('turnstile.checking'));
      return false;
    }
    return true;
  };
  const renew = () => {
    setToken('');
    setWidgetKey((key) => key + 1);
  };
  const demand = () => {
    setDemanded(true);
    renew();
  };
  return { enabled, siteKey, token, setToken, ready, widgetKey, renew, demand };
}
