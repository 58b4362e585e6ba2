import { Role } from '@switchboard/contracts';
import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireLogin } from './guards/require-login.tsx';
import { ConsoleLayout } from './layout/console-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

type PageModule = Promise<{ default: ComponentType }>;
type Access = 'public' | 'user' | 'admin';

/** The page behind the login guard its access needs (admin pages also need role ≥ 10). */
function guarded(Page: ComponentType, access: Access) {
  if (access === 'public') return <Page />;
  return (
    <RequireLogin minRole={access === 'admin' ? Role.admin : Role.common}>
      <Page />
    </RequireLogin>
  );
}

/**
 * A lazily loaded page (its own chunk). The layout's Suspense boundary shows the spinner while it
 * loads; `access` wraps it in the login guard.
 */
function page(path: string, load: () => PageModule, access: Access): RouteObject {
  return { path, element: guarded(lazy(load), access) };
}

/**
 * One lazily loaded page on several paths (`/channel`, and `/channel/add` opening the editor over its
 * list), with one lazy component for all of them, so a move between them never waits for one. A lazy
 * component per path suspended the first render of each path even with the chunk loaded; the channel
 * editor's close, which the page renders at once (not in a transition), then showed the spinner
 * instead, and the page's close never rendered: opened again, the editor was the old one, filled.
 */
function pageOnPaths(paths: readonly string[], load: () => PageModule, access: Access): RouteObject[] {
  const element = guarded(lazy(load), access);
  return paths.map((path) => ({ path, element }));
}

/** The console's routes, new-api's paths. */
export const routes: RouteObject[] = [
  {
    element: <ConsoleLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      page('/', () => import('../features/home/index.tsx'), 'public'),
      page('/about', () => import('../features/about/index.tsx'), 'public'),
      page('/pricing', () => import('../features/pricing/index.tsx'), 'public'),

      page('/login', () => import('../features/auth/login-page.tsx'), 'public'),
      page('/register', () => import('../features/auth/register-page.tsx'), 'public'),
      page('/reset', () => import('../features/auth/reset-request-page.tsx'), 'public'),
      page('/user/reset', () => import('../features/auth/reset-confirm-page.tsx'), 'public'),
      page('/oauth/:provider', () => import('../features/auth/oauth-callback-page.tsx'), 'public'),

      page('/user', () => import('../features/users/index.tsx'), 'admin'),
      page('/user/edit/:id', () => import('../features/users/edit-page.tsx'), 'admin'),
      page('/user/edit', () => import('../features/users/edit-page.tsx'), 'user'),
      page('/setting', () => import('../features/settings/index.tsx'), 'user'),
      page('/setup', () => import('../features/setup/index.tsx'), 'admin'),

      ...pageOnPaths(['/channel', '/channel/add', '/channel/edit/:id'], () => import('../features/channels/index.tsx'), 'admin'),
      page('/token', () => import('../features/tokens/index.tsx'), 'user'),
      page('/redemption', () => import('../features/redemptions/index.tsx'), 'admin'),
      page('/models', () => import('../features/model-catalogue/index.tsx'), 'admin'),
      page('/topup', () => import('../features/wallet/index.tsx'), 'user'),
      page('/log', () => import('../features/logs/index.tsx'), 'user'),
      page('/midjourney', () => import('../features/drawing/index.tsx'), 'user'),
      page('/task', () => import('../features/tasks/index.tsx'), 'user'),
      page('/playground', () => import('../features/playground/index.tsx'), 'user'),
      page('/detail', () => import('../features/dashboard/index.tsx'), 'user'),
      page('/chat/:id?', () => import('../features/chat/index.tsx'), 'user'),
      page('/chat2link', () => import('../features/chat/chat-link-page.tsx'), 'user'),

      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
