import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { logoOf, systemNameOf, useSystemStatus } from '../../lib/system-status.ts';

/**
 * Keeps the tab title and icon in step with the status, and says 'Unable to connect to server' once
 * when the status cannot be loaded and nothing was cached (the console would otherwise look empty).
 */
export function useStatusEffects() {
  const query = useSystemStatus();
  const { message } = App.useApp();
  const { t } = useTranslation();
  const status = query.data;

  useEffect(() => {
    document.title = systemNameOf(status);
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = logoOf(status);
  }, [status]);

  const failed = query.isError && !status;
  useEffect(() => {
    if (failed) void message.error({ key: 'status-unreachable', content: t('http.unreachable') });
  }, [failed, message, t]);

  return query;
}
