import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useTranslation } from 'react-i18next';
// From react-router/dom, which gives the router ReactDOM's flushSync (a navigation may ask for it).
import { RouterProvider } from 'react-router/dom';
import { useTheme } from '../lib/theme.ts';
import { usePrefersReducedMotion } from '../lib/use-reduced-motion.ts';
import { router } from './router.tsx';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** Providers every screen relies on: data cache, antd locale and theme, message/modal context. */
export function App() {
  const { i18n } = useTranslation();
  const dark = useTheme() === 'dark';
  const reducedMotion = usePrefersReducedMotion();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={i18n.language === 'en' ? enUS : zhCN}
        theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { motion: !reducedMotion } }}
        button={{ autoInsertSpace: false }}
      >
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
