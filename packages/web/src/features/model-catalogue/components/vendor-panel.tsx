import { CatalogueStatus, type VendorView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Popconfirm, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VendorBadge } from '../../../components/vendor-badge.tsx';
import { deleteVendor } from '../api/vendors.ts';
import { VendorDrawer } from './vendor-drawer.tsx';

/** The vendors tab: each vendor with its model count; add, edit, delete. */
export function VendorPanel({ vendors, loading, onChanged }: { vendors: readonly VendorView[]; loading: boolean; onChanged: () => void }) {
  const { t } = useTranslation('model-catalogue');
  const { message } = App.useApp();
  const [drawer, setDrawer] = useState<{ open: boolean; vendorId?: number }>({ open: false });
  const remove = useMutation({
    mutationFn: (id: number) => deleteVendor(id),
    onSuccess: () => {
      void message.success(t('messages.deleted'));
      onChanged();
    },
    onError: (error: Error) => void message.error(error.message),
  });
  return (
    <Flex vertical gap={16}>
      <Flex justify="flex-end">
        <Button type="primary" onClick={() => setDrawer({ open: true })}>
          {t('toolbar.addVendor')}
        </Button>
      </Flex>
      <Table<VendorView>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={[...vendors]}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('columns.vendor'), key: 'name', render: (_value, vendor) => <VendorBadge name={vendor.name} icon={vendor.icon} /> },
          { title: t('form.icon'), dataIndex: 'icon' },
          { title: t('form.description'), dataIndex: 'description' },
          { title: t('columns.modelCount'), dataIndex: 'model_count' },
          {
            title: t('columns.status'),
            dataIndex: 'status',
            render: (status: number) =>
              status === CatalogueStatus.enabled ? <Tag color="green">{t('status.enabled')}</Tag> : <Tag color="red">{t('status.disabled')}</Tag>,
          },
          {
            title: t('columns.actions'),
            key: 'actions',
            render: (_value, vendor) => (
              <Flex gap={4}>
                <Button size="small" onClick={() => setDrawer({ open: true, vendorId: vendor.id })}>
                  {t('actions.edit')}
                </Button>
                <Popconfirm title={t('confirmDeleteVendor', { name: vendor.name })} onConfirm={() => remove.mutate(vendor.id)} okButtonProps={{ danger: true }}>
                  <Button size="small" danger>
                    {t('actions.delete')}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      <VendorDrawer open={drawer.open} vendorId={drawer.vendorId} onClose={() => setDrawer({ open: false })} onSaved={onChanged} />
    </Flex>
  );
}
