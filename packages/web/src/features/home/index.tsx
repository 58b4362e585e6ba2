import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { RichContent } from '../../components/rich-content.tsx';
import { useStatusValue } from '../../lib/system-status.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useHomeContent } from './api/home-content.ts';
import { DashboardPanels } from './components/dashboard-panels.tsx';
import { DefaultHome } from './components/default-home.tsx';
import { NoticeModal } from './components/notice-modal.tsx';

// Administrators only, so visitors' first page does not fetch it (the home page's script stays small).
const FirstCallChecklist = lazy(() => import('./components/first-call-checklist.tsx').then((module) => ({ default: module.FirstCallChecklist })));

/** /: the administrator's home page content if set, else the default one; the notice pops up over it. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const status = useStatusValue();
  const content = useHomeContent();
  const custom = content.data?.trim() ?? '';
  const user = useStoredUser();
  return (
    <>
      {isAdmin(user) && (
        <Suspense fallback={null}>
          <FirstCallChecklist />
        </Suspense>
      )}
      {content.isLoading ? (
        <Skeleton active style={{ padding: 48 }} />
      ) : custom ? (
        <div style={{ padding: /^https:\/\//.test(custom) ? 0 : 24 }}>
          <RichContent content={custom} title={t('title')} />
        </div>
      ) : (
        <DefaultHome />
      )}
      <DashboardPanels />
      {status?.notice && <NoticeModal notice={status.notice} />}
    </>
  );
}
