import { Button, DatePicker, Flex, Input, Segmented } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuotaDataQuery } from '../api/quota-data.ts';
import type { Granularity } from '../lib/aggregate.ts';

interface DashboardFiltersProps {
  admin: boolean;
  query: QuotaDataQuery;
  granularity: Granularity;
  onQuery: (query: QuotaDataQuery) => void;
  onGranularity: (granularity: Granularity) => void;
}

/** Time range, user (administrators) and time granularity. */
export function DashboardFilters({ admin, query, granularity, onQuery, onGranularity }: DashboardFiltersProps) {
  const { t } = useTranslation('dashboard');
  const [draft, setDraft] = useState(query);
  return (
    <Flex gap={8} wrap align="center">
      <DatePicker.RangePicker
        showTime
        allowClear={false}
        value={[dayjs.unix(draft.start_timestamp), dayjs.unix(draft.end_timestamp)]}
        onChange={(dates) => {
          if (dates?.[0] && dates[1]) setDraft({ ...draft, start_timestamp: dates[0].unix(), end_timestamp: dates[1].unix() });
        }}
        aria-label={t('filters.range')}
      />
      {admin && (
        <Input
          allowClear
          placeholder={t('filters.username')}
          aria-label={t('filters.username')}
          value={draft.username}
          onChange={(event) => setDraft({ ...draft, username: event.target.value })}
          onPressEnter={() => onQuery({ ...draft, username: draft.username.trim() })}
          style={{ width: 160 }}
        />
      )}
      <Button type="primary" onClick={() => onQuery({ ...draft, username: draft.username.trim() })}>
        {t('filters.submit')}
      </Button>
      <Segmented<Granularity>
        value={granularity}
        onChange={onGranularity}
        options={[
          { value: 'hour', label: t('granularity.hour') },
          { value: 'day', label: t('granularity.day') },
          { value: 'week', label: t('granularity.week') },
        ]}
      />
    </Flex>
  );
}
