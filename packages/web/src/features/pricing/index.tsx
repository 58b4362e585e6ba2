import type { PricingEntry } from '@switchboard/contracts';
import { Alert, App, Button, Card, Empty, Flex, Input, Segmented, Select, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from '../../components/page-size.ts';
import { useCopyWithFallback } from '../../components/use-copy-with-fallback.tsx';
import { useStoredUser } from '../../lib/use-stored-user.ts';
import { usePricing } from './api/get-pricing.ts';
import { useSelfGroup } from './api/get-self-group.ts';
import { PricingBanner } from './components/pricing-banner.tsx';
import { pricingColumns } from './components/pricing-columns.tsx';
import { UnpricedModelsNotice } from '../../components/unpriced-models-notice.tsx';
import { VendorBadge } from '../../components/vendor-badge.tsx';
import { allTags, type CatalogueFilter, matchesCatalogue } from './lib/catalogue.ts';
import { fuzzyMatch, type PriceUnit } from './lib/prices.ts';

/** `/pricing` (public): model prices for a group. */
export default function PricingPage() {
  const { t } = useTranslation('pricing');
  const { message } = App.useApp();
  const loggedIn = useStoredUser() !== null;
  const pricing = usePricing();
  const selfGroup = useSelfGroup(loggedIn);
  const copy = useCopyWithFallback({ copied: t('copied'), failed: t('copyFailed') });
  const [chosenGroup, setChosenGroup] = useState<string | undefined>();
  const [query, setQuery] = useState('');
  const [unit, setUnit] = useState<PriceUnit>('1M');
  const [selected, setSelected] = useState<string[]>([]);
  const [catalogueFilter, setCatalogueFilter] = useState<CatalogueFilter>({});

  const group = chosenGroup ?? selfGroup.data ?? 'default';
  const groupRatio = pricing.data?.groupRatio[group] ?? 1;
  const rows = useMemo(
    () => (pricing.data?.models ?? []).filter((entry) => fuzzyMatch(entry.model_name, query.trim()) && matchesCatalogue(entry, catalogueFilter)),
    [pricing.data, query, catalogueFilter],
  );
  const vendors = useMemo(() => new Map((pricing.data?.vendors ?? []).map((vendor) => [vendor.id, vendor])), [pricing.data]);
  // Only vendors and tags some listed model has are worth offering as filters.
  const usedVendors = useMemo(() => {
    const used = new Set((pricing.data?.models ?? []).map((entry) => entry.vendor_id ?? 0));
    return (pricing.data?.vendors ?? []).filter((vendor) => used.has(vendor.id));
  }, [pricing.data]);
  const tags = useMemo(() => allTags(pricing.data?.models ?? []), [pricing.data]);
  const columns = useMemo(
    () =>
      pricingColumns({
        t,
        group,
        groupRatio,
        unit,
        onCopy: (text) => void copy(text),
        onGroup: setChosenGroup,
        vendors,
        onTag: (tag) => setCatalogueFilter((current) => ({ ...current, tag })),
      }),
    [t, group, groupRatio, unit, copy, vendors],
  );
  const groupOptions = Object.keys(pricing.data?.groupRatio ?? {}).map((name) => ({ value: name, label: `${name} (${pricing.data?.groupRatio[name] ?? 1}x)` }));

  function copySelected() {
    if (selected.length === 0) {
      void message.warning(t('selectFirst'));
      return;
    }
    void copy(selected.join(','));
  }

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <PricingBanner loggedIn={loggedIn} group={group} ratio={groupRatio} />
        <UnpricedModelsNotice />
        <Flex gap={8} wrap justify="space-between">
          <Flex gap={8} wrap>
            <Input
              allowClear
              placeholder={t('search')}
              aria-label={t('search')}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              style={{ width: 240 }}
            />
            <Select
              value={group}
              options={groupOptions.length > 0 ? groupOptions : [{ value: group, label: group }]}
              onChange={setChosenGroup}
              style={{ width: 180 }}
              aria-label={t('group')}
            />
            <Select<number>
              allowClear
              data-testid="pricing-vendor-filter"
              placeholder={t('filterVendor')}
              aria-label={t('filterVendor')}
              value={catalogueFilter.vendor}
              onChange={(vendor) => setCatalogueFilter((current) => ({ ...current, vendor }))}
              options={usedVendors.map((vendor) => ({ value: vendor.id, title: vendor.name, label: <VendorBadge name={vendor.name} icon={vendor.icon} /> }))}
              style={{ width: 180 }}
            />
            <Select<string>
              allowClear
              data-testid="pricing-tag-filter"
              placeholder={t('filterTag')}
              aria-label={t('filterTag')}
              value={catalogueFilter.tag}
              onChange={(tag) => setCatalogueFilter((current) => ({ ...current, tag }))}
              options={tags.map((tag) => ({ value: tag, label: tag }))}
              style={{ width: 160 }}
            />
            <Segmented<PriceUnit>
              value={unit}
              onChange={setUnit}
              options={[
                { value: '1M', label: t('unit.perMillion') },
                { value: '1K', label: t('unit.perThousand') },
              ]}
            />
          </Flex>
          <Button onClick={copySelected}>{t('copySelected')}</Button>
        </Flex>
        {pricing.isError && <Alert type="error" showIcon title={t('loadFailed', { message: pricing.error.message })} />}
        <Table<PricingEntry>
          rowKey="model_name"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={pricing.isLoading}
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={{ defaultPageSize: 20, pageSizeOptions, showSizeChanger: true }}
        />
      </Flex>
    </Card>
  );
}
