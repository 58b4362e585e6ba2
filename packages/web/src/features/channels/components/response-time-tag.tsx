import { Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { responseTimeColour } from '../lib/response-time.ts';

/** The last test's response time in seconds, coloured by speed; grey when never tested. */
export function ResponseTimeTag({ milliseconds, testedAt }: { milliseconds: number; testedAt: number }) {
  const { t } = useTranslation('channels');
  const label = milliseconds ? t('responseTime.seconds', { value: (milliseconds / 1000).toFixed(2) }) : t('responseTime.untested');
  const tag = <Tag color={responseTimeColour(milliseconds)}>{label}</Tag>;
  return testedAt ? <Tooltip title={t('responseTime.testedAt', { time: dayjs.unix(testedAt).format('YYYY-MM-DD HH:mm:ss') })}>{tag}</Tooltip> : tag;
}
