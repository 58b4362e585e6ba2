import type { ChannelBreakerView } from '@switchboard/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../../../lib/date-time.ts';

const colours = { closed: 'green', open: 'red', 'half-open': 'orange' } as const;

/**
 * A channel's circuit breaker: closed (in use), open (skipped until its cool-down ends) or half-open
 * (the next request is its probe). A multi-key channel says how many of its keys are skipped.
 */
export function BreakerStateTag({ breaker }: { breaker: ChannelBreakerView | undefined }) {
  const { t } = useTranslation('channels');
  if (!breaker) return <Tag color={colours.closed}>{t('breaker.closed')}</Tag>;
  const keys = breaker.key_count > 1 ? t('breaker.keys', { open: breaker.open_keys + breaker.half_open_keys, total: breaker.key_count }) : '';
  const label = [t(`breaker.${breaker.state}`), keys].filter(Boolean).join(' · ');
  const tag = <Tag color={breaker.open_keys + breaker.half_open_keys > 0 && breaker.state === 'closed' ? 'gold' : colours[breaker.state]}>{label}</Tag>;
  if (!breaker.open_until) return <Tooltip title={t('breaker.probeNext')}>{tag}</Tooltip>;
  return <Tooltip title={t('breaker.coolingDown', { time: formatUnixTime(breaker.open_until) })}>{tag}</Tooltip>;
}
