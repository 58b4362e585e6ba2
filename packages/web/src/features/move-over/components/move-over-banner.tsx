import type { MoveOverNotice } from '@switchboard/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDismissMoveOverNotice, useMoveOverNotice } from '../api/move-over-notice.ts';

/**
 * After Switchboard first opened a one-api database: which channels it renumbered or disabled and
 * what else it carried over, shown to the root above every page until closed (the layout renders it
 * for the root only). On any other database the answer is null and the locale file is never loaded.
 */
export function MoveOverBanner() {
  const notice = useMoveOverNotice().data;
  return notice ? <NoticeBanner notice={notice} /> : null;
}

function NoticeBanner({ notice }: { notice: MoveOverNotice }) {
  const { t } = useTranslation('move-over');
  const dismiss = useDismissMoveOverNotice();
  const renumbered = notice.channels.filter((channel) => !channel.disabled);
  const disabled = notice.channels.filter((channel) => channel.disabled);
  return (
    <Alert
      type="info"
      showIcon
      closable={{ 'aria-label': t('dismiss') }}
      onClose={() => dismiss.mutate()}
      style={{ marginBottom: 16 }}
      data-testid="move-over-banner"
      title={t('title')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {renumbered.map((channel) => (
            <li key={channel.id}>
              {channel.from === channel.to
                ? t('channelSettings', { id: channel.id, name: channel.name })
                : t('channelMapped', { id: channel.id, name: channel.name, vendor: channel.vendor, from: channel.from, to: channel.to })}
            </li>
          ))}
          {disabled.map((channel) => (
            <li key={channel.id}>{t('channelDisabled', { id: channel.id, name: channel.name, vendor: channel.vendor })}</li>
          ))}
          <li>{t('tokens', { models: notice.tokensWithModelLimits, subnets: notice.tokensWithAllowIps })}</li>
          <li>{t('deletedUsers', { number: notice.deletedUsers })}</li>
        </ul>
      }
    />
  );
}
