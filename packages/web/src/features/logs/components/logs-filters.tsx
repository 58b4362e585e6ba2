import { Button, DatePicker, Flex, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogFilters } from '../api/log-filters.ts';
import { defaultLogFilters } from '../lib/default-filters.ts';

const logTypes = [0, 1, 2, 3, 4] as const;

interface LogsFiltersProps {
  admin: boolean;
  value: LogFilters;
  onChange: (filters: LogFilters) => void;
}

/** Time range, token, model, group; channel and username for administrators; and the type filter. */
export function LogsFilters({ admin, value, onChange }: LogsFiltersProps) {
  const { t } = useTranslation('logs');
  const [draft, setDraft] = useState(value);
  const set = (patch: Partial<LogFilters>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (next = draft) =>
    onChange({
      ...next,
      token_name: next.token_name.trim(),
      model_name: next.model_name.trim(),
      group: next.group.trim(),
      username: next.username.trim(),
      channel: next.channel.trim(),
    });
  const range: [Dayjs, Dayjs] = [dayjs.unix(draft.start_timestamp), dayjs.unix(draft.end_timestamp)];

  return (
    <Flex gap={8} wrap>
      <DatePicker.RangePicker
        showTime
        allowClear={false}
        value={range}
        aria-label={t('filters.range')}
        onChange={(dates) => {
          if (dates?.[0] && dates[1]) set({ start_timestamp: dates[0].unix(), end_timestamp: dates[1].unix() });
        }}
      />
      <Input
        allowClear
        placeholder={t('filters.token')}
        aria-label={t('filters.token')}
        value={draft.token_name}
        onChange={(event) => set({ token_name: event.target.value })}
        onPressEnter={() => submit()}
        style={{ width: 160 }}
      />
      <Input
        allowClear
        placeholder={t('filters.model')}
        aria-label={t('filters.model')}
        value={draft.model_name}
        onChange={(event) => set({ model_name: event.target.value })}
        onPressEnter={() => submit()}
        style={{ width: 160 }}
      />
      <Input
        allowClear
        placeholder={t('filters.group')}
        aria-label={t('filters.group')}
        value={draft.group}
        onChange={(event) => set({ group: event.target.value })}
        onPressEnter={() => submit()}
        style={{ width: 120 }}
      />
      {admin && (
        <>
          <Input
            allowClear
            placeholder={t('filters.channel')}
            aria-label={t('filters.channel')}
            value={draft.channel}
            onChange={(event) => set({ channel: event.target.value.replace(/\D/g, '') })}
            onPressEnter={() => submit()}
            style={{ width: 110 }}
          />
          <Input
            allowClear
            placeholder={t('filters.username')}
            aria-label={t('filters.username')}
            value={draft.username}
            onChange={(event) => set({ username: event.target.value })}
            onPressEnter={() => submit()}
            style={{ width: 140 }}
          />
        </>
      )}
      <Select
        value={draft.type}
        aria-label={t('filters.type')}
        style={{ width: 120 }}
        options={logTypes.map((type) => ({ value: type, label: t(`types.${type}`) }))}
        onChange={(type: number) => {
          const next = { ...draft, type };
          setDraft(next);
          submit(next);
        }}
      />
      <Button type="primary" onClick={() => submit()}>
        {t('filters.submit')}
      </Button>
      <Button
        onClick={() => {
          const reset = defaultLogFilters();
          setDraft(reset);
          onChange(reset);
        }}
      >
        {t('filters.reset')}
      </Button>
    </Flex>
  );
}
