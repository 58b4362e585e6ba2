import { Alert, Card, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isRoot, useStoredUser } from '../../lib/use-stored-user.ts';
import { useOptions } from './api/options.ts';
import { OperationTab } from './operation/operation-tab.tsx';
import { OtherTab } from './other/other-tab.tsx';
import { PersonalTab } from './personal/personal-tab.tsx';
import { SystemTab } from './system/system-tab.tsx';

const rootTabs = ['operation', 'system', 'other'] as const;

/** The root-only tabs need the options; they load once for all three. */
function RootTab({ tab }: { tab: (typeof rootTabs)[number] }) {
  const options = useOptions();
  if (options.isError) return <Alert type="error" showIcon title={options.error.message} />;
  if (!options.data) return <Skeleton active />;
  if (tab === 'operation') return <OperationTab options={options.data} />;
  if (tab === 'system') return <SystemTab options={options.data} />;
  return <OtherTab options={options.data} />;
}

/** /setting?tab=personal|operation|system|other */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const user = useStoredUser();
  const [params, setParams] = useSearchParams();
  const root = isRoot(user);
  const requested = params.get('tab') ?? 'personal';
  const active = root && (rootTabs as readonly string[]).includes(requested) ? requested : 'personal';

  const items = [
    { key: 'personal', label: t('tabs.personal'), children: <PersonalTab /> },
    ...(root ? rootTabs.map((tab) => ({ key: tab, label: t(`tabs.${tab}`), children: <RootTab tab={tab} /> })) : []),
  ];

  return (
    <Card>
      <Tabs activeKey={active} onChange={(tab) => setParams({ tab }, { replace: true })} items={items} destroyOnHidden />
    </Card>
  );
}
