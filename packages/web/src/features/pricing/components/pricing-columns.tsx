import { QuotaType, type PricingEntry, type PricingVendor } from '@switchboard/contracts';
import { Button, Flex, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { VendorBadge } from '../../../components/vendor-badge.tsx';
import { tagsOf } from '../lib/catalogue.ts';
import { formatUsd, priceOf, type PriceUnit } from '../lib/prices.ts';

interface ColumnContext {
  t: TFunction<'pricing'>;
  group: string;
  groupRatio: number;
  unit: PriceUnit;
  onCopy: (text: string) => void;
  onGroup: (group: string) => void;
  vendors: ReadonlyMap<number, PricingVendor>;
  /** Clicking a tag filters the list by it. */
  onTag: (tag: string) => void;
}

/** Availability, model (click copies), vendor, tags (click filters), endpoints, billing type, usable groups (click switches), price. */
export function pricingColumns({ t, group, groupRatio, unit, onCopy, onGroup, vendors, onTag }: ColumnContext): TypedColumns<PricingEntry> {
  return [
    {
      title: t('columns.available'),
      key: 'available',
      width: 90,
      render: (_value, entry) =>
        entry.enable_groups.includes(group) ? (
          <Tag color="green">{t('available')}</Tag>
        ) : (
          <Tooltip title={t('unavailableHelp', { group })}>
            <Tag color="red">{t('unavailable')}</Tag>
          </Tooltip>
        ),
    },
    {
      title: t('columns.model'),
      dataIndex: 'model_name',
      sorter: (left, right) => left.model_name.localeCompare(right.model_name),
      render: (name: string) => (
        <Tooltip title={t('copyModel')}>
          <Typography.Link onClick={() => onCopy(name)}>{name}</Typography.Link>
        </Tooltip>
      ),
    },
    {
      title: t('columns.vendor'),
      key: 'vendor',
      render: (_value, entry) => {
        const vendor = vendors.get(entry.vendor_id ?? 0);
        return vendor ? <VendorBadge name={vendor.name} icon={vendor.icon} /> : <Typography.Text type="secondary">{t('noVendor')}</Typography.Text>;
      },
    },
    {
      title: t('columns.tags'),
      key: 'tags',
      render: (_value, entry) => (
        <Flex gap={4} wrap>
          {tagsOf(entry).map((tag) => (
            <Tag key={tag} color="gold" style={{ cursor: 'pointer' }} onClick={() => onTag(tag)}>
              {tag}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.endpoints'),
      key: 'endpoints',
      render: (_value, entry) => (
        <Flex gap={4} wrap>
          {(entry.supported_endpoint_types ?? []).map((type) => (
            <Tag key={type} color="geekblue">
              {type}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.billing'),
      dataIndex: 'quota_type',
      filters: [
        { text: t('billing.token'), value: QuotaType.perToken },
        { text: t('billing.call'), value: QuotaType.perCall },
      ],
      onFilter: (value, entry) => entry.quota_type === value,
      render: (type: number) => (type === QuotaType.perCall ? <Tag color="purple">{t('billing.call')}</Tag> : <Tag color="blue">{t('billing.token')}</Tag>),
    },
    {
      title: t('columns.groups'),
      key: 'groups',
      render: (_value, entry) => (
        <Flex gap={4} wrap>
          {entry.enable_groups.map((name) => (
            <Button key={name} size="small" type={name === group ? 'primary' : 'default'} onClick={() => onGroup(name)}>
              {name}
            </Button>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.price'),
      key: 'price',
      render: (_value, entry) => {
        const price = priceOf(entry, groupRatio, unit);
        if (price.kind === 'call') return t('price.call', { price: formatUsd(price.prompt) });
        return (
          <Flex vertical>
            <span>{t('price.prompt', { price: formatUsd(price.prompt), unit })}</span>
            <span>{t('price.completion', { price: formatUsd(price.completion), unit })}</span>
          </Flex>
        );
      },
    },
  ];
}
