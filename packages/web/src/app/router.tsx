import { Role } from '@switchboard/contracts';
import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireLogin } from './guards/require-login.tsx';
import { ConsoleLayout } from './layout/console-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

type PageModule = Promise<{ default: ComponentType }>;
type Access = 'public' | 'user' | 'admin';

/**
 * A lazily loaded page (its own chunk). The layout's Suspense boundary shows the spinner while it
 * loads; `access` wraps it in the login guard (admin pages also need role ≥ 10).
 */
function page(path: string, load: () => PageModule, access: Access): RouteObject {
  const Page = lazy(load);
  const element =
    access === 'public' ? (
      <Page />
    ) : (
      <RequireLogin minRole={access === 'admin' ? Role.admin : Role.common}>
        <Page />
      </RequireLogin>
    );
  return { path, element };
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

      page('/channel', () => import('../features/channels/index.tsx'), 'admin'),
      page('/channel/add', () => import('../features/channels/index.tsx'), 'admin'),
      page('/channel/edit/:id', () => import('../features/channels/index.tsx'), 'admin'),
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
