import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { RichContent } from '../../components/rich-content.tsx';
import { useStatusValue } from '../../lib/system-status.ts';
import { useHomeContent } from './api/home-content.ts';
import { DashboardPanels } from './components/dashboard-panels.tsx';
import { DefaultHome } from './components/default-home.tsx';
import { FirstCallChecklist } from './components/first-call-checklist.tsx';
import { NoticeModal } from './components/notice-modal.tsx';

/** /: the administrator's home page content if set, else the default one; the notice pops up over it. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const status = useStatusValue();
  const content = useHomeContent();
  const custom = content.data?.trim() ?? '';
  return (
    <>
      <FirstCallChecklist />
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
