import { Drawer, Layout, Spin, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { JournalBanner } from './journal-banner.tsx';
import { useIsMobile } from '../../lib/use-is-mobile.ts';
import { isRoot, useStoredUser } from '../../lib/use-stored-user.ts';
import { visibleNavigation } from '../navigation.tsx';
import { SideMenu } from './side-menu.tsx';
import { SiteFooter } from './site-footer.tsx';
import { TopBar } from './top-bar.tsx';
import { useSiderCollapsed } from './use-sider-collapsed.ts';
import { useStatusEffects } from './use-status-effects.ts';

// Only the root of a database moved over from one-api ever sees it; loaded when a root is logged in.
const MoveOverBanner = lazy(() => import('../../features/move-over/index.tsx').then((module) => ({ default: module.MoveOverBanner })));

/** Home and the embedded chat use the full width: no side menu, no inner padding. */
function isBarePath(pathname: string): boolean {
  return pathname === '/' || pathname === '/chat' || pathname.startsWith('/chat/');
}

export function PageSpinner() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
      <Spin size="large" />
    </div>
  );
}

/** Top bar, side menu (drawer on mobile), the page and the footer. */
export function ConsoleLayout() {
  const status = useStatusEffects().data;
  const { token } = theme.useToken();
  const user = useStoredUser();
  const isMobile = useIsMobile();
  const { pathname, search } = useLocation();
  const [collapsed, setCollapsed] = useSiderCollapsed(status?.default_collapse_sidebar ?? false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  const items = visibleNavigation(user, status);
  const bare = isBarePath(pathname);
  const showSider = items.length > 0 && !bare && !isMobile;

  return (
    // data-location: the location this layout last rendered. The router renders a navigation in a
    // transition, so the address changes before the screen does; the browser tests wait for this
    // (e2e/support/browser.ts, navigateInApp).
    <Layout style={{ minHeight: '100vh' }} data-location={pathname + search}>
      <Layout.Header style={{ padding: 0, height: 64, lineHeight: 'normal', position: 'sticky', top: 0, zIndex: 10, background: token.colorBgContainer }}>
        <TopBar isMobile={isMobile} onOpenMenu={isMobile && items.length > 0 ? () => setDrawerOpen(true) : undefined} />
      </Layout.Header>
      <Layout hasSider={showSider}>
        {showSider && (
          <Layout.Sider
            theme="light"
            collapsible
            collapsed={collapsed}
            onCollapse={setCollapsed}
            width={200}
            // Fixed beside the page: it stays in view (scrolling on its own if taller) however long the page.
            style={{
              borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
              position: 'sticky',
              top: 64,
              height: 'calc(100vh - 64px)',
              overflowY: 'auto',
              alignSelf: 'flex-start',
            }}
            data-testid="side-bar"
          >
            <SideMenu items={items} />
          </Layout.Sider>
        )}
        <Layout>
          <Layout.Content style={{ padding: bare ? 0 : isMobile ? 8 : 24, minWidth: 0 }}>
            <Suspense fallback={<PageSpinner />}>
              {!bare && isRoot(user) && <JournalBanner />}
              {!bare && isRoot(user) && <MoveOverBanner />}
              <Outlet />
            </Suspense>
          </Layout.Content>
          <SiteFooter />
        </Layout>
      </Layout>
      {isMobile && items.length > 0 && (
        <Drawer placement="left" open={drawerOpen} onClose={() => setDrawerOpen(false)} size={240} styles={{ body: { padding: 0 } }}>
          <SideMenu items={items} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      )}
    </Layout>
  );
}
