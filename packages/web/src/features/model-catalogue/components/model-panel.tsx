import type { ModelMetaView, VendorView } from '@switchboard/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Flex, Input, Select, Table } from 'antd';
import { useUnpricedModels } from '../../../lib/unpriced-models.ts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from '../../../components/page-size.ts';
import { VendorBadge } from '../../../components/vendor-badge.tsx';
import { catalogueQueryKey, listModels, type ModelFilter } from '../api/list-models.ts';
import { syncModels } from '../api/sync-models.ts';
import { modelColumns } from './model-columns.tsx';
import { ModelDrawer } from './model-drawer.tsx';

/** The models tab: search by name and vendor, sync from the channels, add and edit. */
export function ModelPanel({ vendors, onChanged }: { vendors: readonly VendorView[]; onChanged: () => void }) {
  const { t } = useTranslation('model-catalogue');
  const { message } = App.useApp();
  const [keywordDraft, setKeywordDraft] = useState('');
  const [filter, setFilter] = useState<ModelFilter>({ keyword: '', vendor: '' });
  const [paging, setPaging] = useState({ page: 1, size: 20 });
  const [drawer, setDrawer] = useState<{ open: boolean; modelId?: number }>({ open: false });
  const models = useQuery({
    queryKey: [...catalogueQueryKey, 'models', filter, paging],
    queryFn: ({ signal }) => listModels(filter, paging.page, paging.size, signal),
    placeholderData: keepPreviousData,
  });
  const vendorMap = useMemo(() => new Map(vendors.map((vendor) => [vendor.id, vendor])), [vendors]);
  const refresh = onChanged;
  const unpriced = useUnpricedModels();
  const columns = useMemo(
    () => modelColumns({ t, vendors: vendorMap, onEdit: (model) => setDrawer({ open: true, modelId: model.id }), onChanged: refresh, unpriced }),
    [t, vendorMap, refresh, unpriced],
  );
  const sync = useMutation({
    mutationFn: syncModels,
    onSuccess: (result) => {
      void message.success(t('messages.synced', { models: result.created_models, vendors: result.created_vendors, skipped: result.skipped_models.length }));
      refresh();
    },
    onError: (error: Error) => void message.error(error.message),
  });
  const search = (vendor = filter.vendor) => {
    setFilter({ keyword: keywordDraft.trim(), vendor });
    setPaging((current) => ({ ...current, page: 1 }));
  };
  const counts = models.data?.vendor_counts ?? {};

  return (
    <Flex vertical gap={16}>
      <Flex gap={8} wrap justify="space-between">
        <Flex gap={8} wrap>
          <Input
            allowClear
            placeholder={t('search')}
            aria-label={t('search')}
            value={keywordDraft}
            onChange={(event) => setKeywordDraft(event.target.value)}
            onPressEnter={() => search()}
            style={{ width: 240 }}
          />
          <Select
            allowClear
            placeholder={t('filterVendor')}
            aria-label={t('filterVendor')}
            value={filter.vendor === '' ? undefined : Number(filter.vendor)}
            onChange={(value: number | undefined) => search(value === undefined ? '' : String(value))}
            style={{ width: 220 }}
            options={vendors.map((vendor) => ({
              value: vendor.id,
              title: vendor.name,
              label: (
                <Flex justify="space-between" gap={8}>
                  <VendorBadge name={vendor.name} icon={vendor.icon} />
                  <span>{counts[String(vendor.id)] ?? 0}</span>
                </Flex>
              ),
            }))}
          />
          <Button type="primary" onClick={() => search()}>
            {t('searchSubmit')}
          </Button>
        </Flex>
        <Flex gap={8} wrap>
          <Button type="primary" loading={sync.isPending} onClick={() => sync.mutate()}>
            {t('toolbar.sync')}
          </Button>
          <Button onClick={() => setDrawer({ open: true })}>{t('toolbar.addModel')}</Button>
          <Button onClick={refresh}>{t('toolbar.refresh')}</Button>
        </Flex>
      </Flex>
      <Alert type="info" showIcon title={t('syncHelp')} />
      {models.isError && <Alert type="error" showIcon title={t('loadFailed', { message: models.error.message })} />}
      <Table<ModelMetaView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={models.data?.items ?? []}
        loading={models.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('empty')} /> }}
        pagination={{
          current: paging.page,
          pageSize: paging.size,
          total: models.data?.total ?? 0,
          pageSizeOptions,
          showSizeChanger: true,
          onChange: (page, size) => setPaging({ page: size === paging.size ? page : 1, size }),
        }}
      />
      <ModelDrawer open={drawer.open} modelId={drawer.modelId} vendors={vendors} onClose={() => setDrawer({ open: false })} onSaved={refresh} />
    </Flex>
  );
}
