import type { JournalHealth } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';

/** A full disk can fill or free itself at any moment: the banner follows within half a minute. */
const refreshMs = 30_000;

/** `GET /api/status/journal` (root): whether charges reach the quota journal before their answers complete. */
function useJournalHealth() {
  return useQuery({
    queryKey: ['journal-health'],
    queryFn: ({ signal }) => api.get<JournalHealth>('/api/status/journal', undefined, signal),
    refetchInterval: refreshMs,
  });
}

/**
 * Shown to root above every page while the quota journal cannot be written (a full or read-only
 * disk): answers go on (unless the operator chose to refuse paid calls), but a crash now would lose
 * the charges not yet in the database. Gone by itself once a write lands again. The layout renders
 * it for root only.
 */
export function JournalBanner() {
  const { t } = useTranslation();
  const health = useJournalHealth().data;
  if (!health || health.writable) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="journal-banner"
      title={t('journalBanner.title')}
      description={`${t(health.refusing_paid_calls ? 'journalBanner.refusing' : 'journalBanner.serving')} ${t('journalBanner.failedWrites', { count: health.failed_writes })}`}
    />
  );
}
