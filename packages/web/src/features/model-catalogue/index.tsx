import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { catalogueQueryKey } from './api/list-models.ts';
import { listVendors } from './api/vendors.ts';
import { ModelPanel } from './components/model-panel.tsx';
import { VendorPanel } from './components/vendor-panel.tsx';

/** `/models`: the model catalogue (administrators): models with vendor, tags and endpoints, and the vendors. */
export default function ModelCataloguePage() {
  const { t } = useTranslation('model-catalogue');
  const vendors = useQuery({ queryKey: [...catalogueQueryKey, 'vendors'], queryFn: ({ signal }) => listVendors('', signal) });
  const vendorList = vendors.data?.items ?? [];
  const queryClient = useQueryClient();
  // A vendor's deletion unsets it on its models, a sync adds both: every change refreshes the whole catalogue.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogueQueryKey });
  return (
    <Card title={t('title')}>
      <Tabs
        items={[
          { key: 'models', label: t('tabs.models'), children: <ModelPanel vendors={vendorList} onChanged={refresh} /> },
          { key: 'vendors', label: t('tabs.vendors'), children: <VendorPanel vendors={vendorList} loading={vendors.isFetching} onChanged={refresh} /> },
        ]}
      />
    </Card>
  );
}
