import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { storedLanguage } from './lib/i18n.ts';
import { applyStoredTheme } from './lib/theme.ts';

applyStoredTheme();
document.documentElement.lang = storedLanguage() === 'en' ? 'en' : 'zh-CN';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');
createRoot(container).render(
  <StrictMode>
    {/* i18next may still be initialising on the very first render; nothing is shown for that instant. */}
    <Suspense fallback={null}>
      <App />
    </Suspense>
  </StrictMode>,
);
