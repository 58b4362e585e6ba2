import { Col, Row } from 'antd';
import { lazy, Suspense } from 'react';
import { useStatusValue } from '../../../lib/system-status.ts';
import { useUptimeStatus } from '../api/uptime-status.ts';

// Each panel is its own chunk, fetched only when it has something to show: a home page without
// panels (every fresh install) loads none of their components.
const AnnouncementsPanel = lazy(() => import('./panels/announcements-panel.tsx').then((module) => ({ default: module.AnnouncementsPanel })));
const ApiInfoPanel = lazy(() => import('./panels/api-info-panel.tsx').then((module) => ({ default: module.ApiInfoPanel })));
const FaqPanel = lazy(() => import('./panels/faq-panel.tsx').then((module) => ({ default: module.FaqPanel })));
const UptimePanel = lazy(() => import('./panels/uptime-panel.tsx').then((module) => ({ default: module.UptimePanel })));

/**
 * new-api's four dashboard panels on the home page, from the status (each list is there only while its
 * panel is switched on) and `GET /api/uptime/status`. A panel with nothing to show is left out, so a
 * fresh install shows none.
 */
export function DashboardPanels() {
  const status = useStatusValue();
  const uptime = useUptimeStatus(status?.uptime_kuma_enabled === true).data ?? [];
  const panels = [
    status?.announcements?.length ? <AnnouncementsPanel key="announcements" items={status.announcements} /> : null,
    status?.api_info?.length ? <ApiInfoPanel key="api-info" items={status.api_info} /> : null,
    status?.faq?.length ? <FaqPanel key="faq" items={status.faq} /> : null,
    status?.uptime_kuma_enabled && uptime.length > 0 ? <UptimePanel key="uptime" groups={uptime} /> : null,
  ].filter((panel) => panel !== null);
  if (panels.length === 0) return null;
  return (
    <div style={{ padding: '0 16px 48px', maxWidth: 1040, margin: '0 auto' }}>
      <Suspense fallback={null}>
        <Row gutter={[16, 16]}>
          {panels.map((panel) => (
            <Col key={panel.key} xs={24} md={12}>
              {panel}
            </Col>
          ))}
        </Row>
      </Suspense>
    </div>
  );
}
