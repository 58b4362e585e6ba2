import { CatalogueStatus, type ModelMetaView, type VendorView } from '@switchboard/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { UnpricedModelTag } from '../../../components/unpriced-model-tag.tsx';
import { VendorBadge } from '../../../components/vendor-badge.tsx';
import { endpointTypesOf, tagList } from '../lib/tags.ts';
import { ModelRowActions } from './model-row-actions.tsx';

interface ColumnContext {
  t: TFunction<'model-catalogue'>;
  vendors: ReadonlyMap<number, VendorView>;
  onEdit: (model: ModelMetaView) => void;
  onChanged: () => void;
  /** Models some channel lists that callers would be refused for lack of a price. */
  unpriced: ReadonlySet<string>;
}

const ruleColours = ['default', 'blue', 'purple', 'cyan'] as const;

/** Name (with its rule), vendor, tags, endpoints, channels, status, actions. */
export function modelColumns({ t, vendors, onEdit, onChanged, unpriced }: ColumnContext): TypedColumns<ModelMetaView> {
  return [
    {
      title: t('columns.name'),
      dataIndex: 'model_name',
      render: (name: string, model) => (
        <Flex gap={4} align="center" wrap>
          <Typography.Text strong>{name}</Typography.Text>
          {model.name_rule !== 0 && (
            <Tag color={ruleColours[model.name_rule]}>
              {t(`nameRule.${model.name_rule}`)} · {t('matched', { count: model.matched_count ?? 0 })}
            </Tag>
          )}
          {model.name_rule === 0 && unpriced.has(name) && <UnpricedModelTag model={name} />}
        </Flex>
      ),
    },
    {
      title: t('columns.vendor'),
      key: 'vendor',
      render: (_value, model) => {
        const vendor = vendors.get(model.vendor_id);
        return vendor ? <VendorBadge name={vendor.name} icon={vendor.icon} /> : <Typography.Text type="secondary">{t('noVendor')}</Typography.Text>;
      },
    },
    {
      title: t('columns.tags'),
      dataIndex: 'tags',
      render: (tags: string) => (
        <Flex gap={4} wrap>
          {tagList(tags).map((tag) => (
            <Tag key={tag}>{tag}</Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.endpoints'),
      dataIndex: 'endpoints',
      render: (endpoints: string) => {
        const own = endpointTypesOf(endpoints);
        return own.length === 0 ? (
          <Typography.Text type="secondary">{t('endpointsFromChannels')}</Typography.Text>
        ) : (
          <Flex gap={4} wrap>
            {own.map((type) => (
              <Tag key={type} color="geekblue">
                {type}
              </Tag>
            ))}
          </Flex>
        );
      },
    },
    {
      title: t('columns.channels'),
      key: 'channels',
      render: (_value, model) => (model.bound_channels.length === 0 ? '—' : model.bound_channels.map((channel) => channel.name).join(', ')),
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: number, model) => (
        <Flex gap={4} wrap>
          {status === CatalogueStatus.enabled ? <Tag color="green">{t('status.enabled')}</Tag> : <Tag color="red">{t('status.disabled')}</Tag>}
          {model.sync_official === 0 && <Tag>{t('status.noSync')}</Tag>}
        </Flex>
      ),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, model) => <ModelRowActions model={model} onEdit={onEdit} onChanged={onChanged} />,
    },
  ];
}
