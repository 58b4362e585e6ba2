import { useSyncExternalStore } from 'react';

/** The mobile threshold: below 600 px the side menu moves into a drawer and paddings shrink. */
const mobileQuery = '(max-width: 599.98px)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(mobileQuery);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(mobileQuery).matches);
}
