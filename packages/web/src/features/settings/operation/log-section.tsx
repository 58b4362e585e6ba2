import { App, Button, DatePicker, Flex, Form, Popconfirm, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { dateTimeFormat } from '../../../lib/date-time.ts';
import { purgeLogs } from '../api/purge-logs.ts';
import { OptionSection } from '../components/option-section.tsx';
import type { OptionField } from '../lib/option-field.ts';

/** LogRetentionDays is our addition: days to keep logs (a background job deletes older ones), 0 keeps them forever. */
const fields: readonly OptionField[] = [
  { key: 'LogConsumeEnabled', kind: 'switch' },
  { key: 'LogRetentionDays', kind: 'number', min: 0, help: true },
  // Payload logging (request and response bodies, administrators only): off by default, see the README.
  { key: 'LogPayloadEnabled', kind: 'switch', help: true },
  { key: 'LogPayloadRetentionDays', kind: 'number', min: 1, help: true },
  { key: 'LogPayloadMaxBytes', kind: 'number', min: 1024, help: true },
];

/** Consumption logging on/off, how long logs are kept, and purging logs older than a chosen time (default: a month back). */
export function LogSection({ options }: { options: Record<string, string> }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [before, setBefore] = useState<Dayjs | null>(() => dayjs().subtract(1, 'month'));
  const [busy, setBusy] = useState(false);

  const purge = async () => {
    if (!before) {
      void message.error(t('logs.chooseTime'));
      return;
    }
    setBusy(true);
    try {
      const count = await purgeLogs(before.unix());
      void message.success(t('logs.purged', { count }));
    } catch (error) {
      void message.error(t('logs.purgeFailed', { message: error instanceof ApiError ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <OptionSection id="logs" fields={fields} options={options}>
      <Form.Item label={t('logs.purgeBefore')}>
        <Flex gap={8} wrap align="center">
          <DatePicker showTime value={before} onChange={setBefore} data-testid="purge-before" />
          {before ? (
            <Popconfirm title={t('logs.purgeConfirm', { time: before.format(dateTimeFormat) })} onConfirm={() => void purge()} okButtonProps={{ danger: true }}>
              <Button danger loading={busy} data-testid="purge-logs">
                {t('logs.purge')}
              </Button>
            </Popconfirm>
          ) : (
            <Button danger onClick={() => void purge()} data-testid="purge-logs">
              {t('logs.purge')}
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary">{t('logs.purgeHint')}</Typography.Text>
      </Form.Item>
    </OptionSection>
  );
}
