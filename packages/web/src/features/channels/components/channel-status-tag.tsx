import { ChannelStatus } from '@switchboard/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../../../lib/date-time.ts';

const colours: Record<number, string> = {
  [ChannelStatus.enabled]: 'green',
  [ChannelStatus.manuallyDisabled]: 'red',
  [ChannelStatus.autoDisabled]: 'gold',
};

interface StatusInfo {
  status_reason?: string;
  status_time?: number;
}

function parseInfo(otherInfo: string | null | undefined): StatusInfo {
  if (!otherInfo) return {};
  try {
    const parsed = JSON.parse(otherInfo) as unknown;
    return typeof parsed === 'object' && parsed ? (parsed as StatusInfo) : {};
  } catch {
    return {};
  }
}

/** Channel status; an auto-disabled channel explains why and since when in a tooltip. */
export function ChannelStatusTag({ status, otherInfo }: { status: number; otherInfo?: string | null }) {
  const { t } = useTranslation('channels');
  const tag = <Tag color={colours[status] ?? 'default'}>{status in colours ? t(`status.${status}`) : t('status.unknown')}</Tag>;
  if (status !== ChannelStatus.autoDisabled) return tag;
  const info = parseInfo(otherInfo);
  if (!info.status_reason && !info.status_time) return tag;
  const when = formatUnixTime(info.status_time ?? 0);
  return <Tooltip title={t('status.autoDisabledReason', { reason: info.status_reason || '-', time: when })}>{tag}</Tooltip>;
}
