import type { LogView } from '@switchboard/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { keyedContentOf } from '../lib/log-content.ts';

/**
 * A log row's content in the reader's language: the message the row names (`contents.<key>` in the
 * logs locale, a `quota` param in the site's quota display), else the text as stored.
 */
export function useLogContent(entry: Pick<LogView, 'content' | 'other'>): string {
  const { t, i18n } = useTranslation('logs');
  const formatQuota = useQuotaFormatter();
  const keyed = keyedContentOf(entry.other);
  const id = keyed ? `contents.${keyed.key}` : '';
  if (!keyed || !i18n.exists(id, { ns: 'logs' })) return entry.content ?? '';
  const params = { ...keyed.params, ...(typeof keyed.params.quota === 'number' ? { quota: formatQuota(keyed.params.quota) } : {}) };
  return t(id, { ...params, interpolation: { escapeValue: false } });
}

export function LogContentText({ entry }: { entry: Pick<LogView, 'content' | 'other'> }) {
  return <>{useLogContent(entry)}</>;
}
