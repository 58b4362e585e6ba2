import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Input, Popconfirm, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroups } from '../api/catalogue-queries.ts';
import { deleteDisabledChannels } from '../api/delete-disabled-channels.ts';
import type { ChannelListFilters } from '../api/list-channels.ts';
import type { ChannelSearch } from '../api/search-channels.ts';
import { testAllChannels } from '../api/test-all-channels.ts';
import { updateAllBalances } from '../api/update-balance.ts';

interface ChannelsToolbarProps {
  filters: ChannelListFilters & { batch: boolean };
  onFilters: (filters: ChannelListFilters & { batch: boolean }) => void;
  onSearch: (search: ChannelSearch) => void;
  onAdd: () => void;
  onRefresh: () => void;
}

/** Search (keyword, model, group), the list switches, and the whole-list actions. */
export function ChannelsToolbar({ filters, onFilters, onSearch, onAdd, onRefresh }: ChannelsToolbarProps) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const groups = useGroups();
  const [search, setSearch] = useState<ChannelSearch>({ keyword: '', model: '', group: '' });
  const submit = (next = search) => onSearch({ keyword: next.keyword.trim(), model: next.model.trim(), group: next.group });
  const onError = (error: Error) => void message.error(error.message);

  const testAll = useMutation({ mutationFn: testAllChannels, onSuccess: () => void message.info(t('messages.testAllStarted')), onError });
  const balances = useMutation({
    mutationFn: updateAllBalances,
    onSuccess: () => {
      void message.success(t('messages.balancesUpdated'));
      onRefresh();
    },
    onError,
  });
  const deleteDisabled = useMutation({
    mutationFn: deleteDisabledChannels,
    onSuccess: (count) => {
      void message.success(t('messages.deletedCount', { count }));
      onRefresh();
    },
    onError,
  });

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap>
        <Input
          allowClear
          placeholder={t('search.keyword')}
          aria-label={t('search.keyword')}
          value={search.keyword}
          onChange={(event) => setSearch({ ...search, keyword: event.target.value })}
          onPressEnter={() => submit()}
          style={{ width: 220 }}
        />
        <Input
          allowClear
          placeholder={t('search.model')}
          aria-label={t('search.model')}
          value={search.model}
          onChange={(event) => setSearch({ ...search, model: event.target.value })}
          onPressEnter={() => submit()}
          style={{ width: 180 }}
        />
        <Select
          allowClear
          placeholder={t('search.group')}
          aria-label={t('search.group')}
          value={search.group || undefined}
          loading={groups.isLoading}
          options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
          onChange={(group?: string) => {
            const next = { ...search, group: group ?? '' };
            setSearch(next);
            submit(next);
          }}
          style={{ width: 160 }}
        />
        <Button type="primary" onClick={() => submit()}>
          {t('search.submit')}
        </Button>
      </Flex>
      <Flex gap={8} wrap align="center" justify="space-between">
        <Flex gap={16} wrap align="center">
          <Flex gap={6} align="center">
            <Switch size="small" checked={filters.idSort} onChange={(idSort) => onFilters({ ...filters, idSort })} aria-label={t('toolbar.idSort')} />
            <Typography.Text>{t('toolbar.idSort')}</Typography.Text>
          </Flex>
          <Flex gap={6} align="center">
            <Switch size="small" checked={filters.tagMode} onChange={(tagMode) => onFilters({ ...filters, tagMode })} aria-label={t('toolbar.tagMode')} />
            <Typography.Text>{t('toolbar.tagMode')}</Typography.Text>
          </Flex>
          <Flex gap={6} align="center">
            <Switch size="small" checked={filters.batch} onChange={(batch) => onFilters({ ...filters, batch })} aria-label={t('toolbar.batch')} />
            <Typography.Text>{t('toolbar.batch')}</Typography.Text>
          </Flex>
        </Flex>
        <Flex gap={8} wrap>
          <Button type="primary" onClick={onAdd}>
            {t('toolbar.add')}
          </Button>
          <Popconfirm title={t('confirm.testAll')} onConfirm={() => testAll.mutate()}>
            <Button loading={testAll.isPending}>{t('toolbar.testAll')}</Button>
          </Popconfirm>
          <Popconfirm title={t('confirm.updateBalances')} onConfirm={() => balances.mutate()}>
            <Button loading={balances.isPending}>{t('toolbar.updateBalances')}</Button>
          </Popconfirm>
          <Popconfirm title={t('confirm.deleteDisabled')} onConfirm={() => deleteDisabled.mutate()} okButtonProps={{ danger: true }}>
            <Button danger loading={deleteDisabled.isPending}>
              {t('toolbar.deleteDisabled')}
            </Button>
          </Popconfirm>
          <Button onClick={onRefresh}>{t('toolbar.refresh')}</Button>
        </Flex>
      </Flex>
    </Flex>
  );
}
