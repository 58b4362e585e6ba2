import { DEFAULT_QUOTA_PER_UNIT, type LogView } from '@switchboard/contracts';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStatusValue } from '../../../lib/system-status.ts';
import { billingSteps } from '../lib/billing-process.ts';
import { parseOther } from '../lib/log-other.ts';
import { LogContentText } from './log-content-text.tsx';
import { LogPayload } from './log-payload.tsx';

/** The expanded row: what was recorded and how the cost was computed. */
export function LogDetails({ entry, admin }: { entry: LogView; admin: boolean }) {
  const { t } = useTranslation('logs');
  const status = useStatusValue();
  const other = parseOther(entry.other);
  const steps = billingSteps(entry, other, status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT);
  return (
    <>
      <Descriptions size="small" column={1} bordered>
        {entry.content ? (
          <Descriptions.Item label={t('details.content')}>
            <LogContentText entry={entry} />
          </Descriptions.Item>
        ) : null}
        {other.model_ratio !== undefined && <Descriptions.Item label={t('details.modelRatio')}>{other.model_ratio}</Descriptions.Item>}
        {other.completion_ratio !== undefined && <Descriptions.Item label={t('details.completionRatio')}>{other.completion_ratio}</Descriptions.Item>}
        {other.model_price !== undefined && other.model_price > 0 && (
          <Descriptions.Item label={t('details.modelPrice')}>${other.model_price}</Descriptions.Item>
        )}
        {other.group_ratio !== undefined && <Descriptions.Item label={t('details.groupRatio')}>{other.group_ratio}</Descriptions.Item>}
        {other.cache_tokens !== undefined && other.cache_tokens > 0 && (
          <Descriptions.Item label={t('details.cacheTokens')}>
            {t('details.cacheValue', { tokens: other.cache_tokens, ratio: other.cache_ratio ?? 1 })}
          </Descriptions.Item>
        )}
        {admin && other.admin_info?.use_channel && other.admin_info.use_channel.length > 0 && (
          <Descriptions.Item label={t('details.retryChain')}>{other.admin_info.use_channel.join(' → ')}</Descriptions.Item>
        )}
        {steps.length > 0 && (
          <Descriptions.Item label={t('details.billing')}>
            {steps.map((step) => (
              <Typography.Paragraph key={step.key} style={{ marginBottom: 4 }}>
                {t(`billing.${step.key}`, step.values)}
              </Typography.Paragraph>
            ))}
            <Typography.Text type="secondary">{t('billing.note')}</Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
      {/* Stored request and response bodies (payload logging), for administrators only. */}
      {admin && <LogPayload logId={entry.id} />}
    </>
  );
}
